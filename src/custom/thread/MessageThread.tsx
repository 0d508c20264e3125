/**
 * The message thread of a record (SPEC 2, issue 5): its messages oldest first, relative times refreshed
 * every 30 s, `#message-{id}` scrolled to and highlighted, and the new-message form for a caller with
 * messages.store. Tickets in both apps and assets in the portal use it. The server decides what a
 * client sees: internal notes never reach the portal.
 *
 * GET /api/messages?builder[0][orderBy]=[created_at, desc]&builder[1][where]=[morphable_type, =, type]
 *   &builder[2][where]=[morphable_id, =, id]&builder[3][paginate]=100&with[0]=attachments&page=n
 *
 * The newest 100 come first; older ones are a button away ('Load older messages'), and a deep link to an
 * older message loads pages until it is there.
 */
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import {
  useCanAccess,
  useDataProvider,
  useGetIdentity,
  useGetList,
  useInfiniteGetList,
  useNotify,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import { useLocation } from 'react-router-dom';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { useReloadOnEvent } from '../detail/parts.tsx';
import { useAppKind } from '../appKind.ts';
import MessageItem from './MessageItem.tsx';
import MessageForm from './MessageForm.tsx';
import { useConfirm, NotConfirmedError } from './useConfirm.tsx';
import { canSendToClient, messageAnchor, messageIdFromHash, type ThreadMessage } from './helpers.ts';
import type { MentionCandidate } from './mentions.tsx';
import { placeholderValues } from './placeholders.ts';
import { useLive } from '../../live/useLive.ts';

/** SPEC 9: relative times refresh every 30 s. */
export const RELATIVE_TIME_REFRESH_MS = 30_000;
/** Messages a thread loads at a time (the server's page size cap). */
export const THREAD_PAGE_SIZE = 100;

/**
 * The moment relative times are measured from: refreshed every 30 s, and at once when `changed` changes
 * (new messages arrived), so that a message just posted is not measured against a moment up to 30 s
 * before it was written; the interval restarts then, and every message moves on together.
 */
export function useNow(intervalMs = RELATIVE_TIME_REFRESH_MS, changed?: unknown): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const tick = () => setNow(new Date());
    // Not on the first render (the state starts at now); on every later change, right away.
    const first = changed === undefined ? undefined : setTimeout(tick, 0);
    const timer = setInterval(tick, intervalMs);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [intervalMs, changed]);
  return now;
}

/** Operators to mention with '@' (back office only). */
function useMentionCandidates(enabled: boolean): MentionCandidate[] | undefined {
  const { data } = useGetList(
    'operators',
    {
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'full_name', order: 'ASC' },
      filter: { 'archived_at@null': true },
      meta: { list: 'mentions' },
    },
    { enabled },
  );
  return useMemo(
    () => (enabled ? (data ?? []).map((o) => ({ id: o.id, label: String(o.full_name ?? o.id) })) : undefined),
    [data, enabled],
  );
}

export interface MessageThreadProps {
  /** The polymorphic owner type: 'ticket' or 'asset' (SPEC 3). */
  morphType: string;
  /** The owner record (a ticket with its client, an asset). */
  record: RaRecord;
  /** A short description stored with new messages (the ticket's). */
  description?: string | null;
}

export default function MessageThread({ morphType, record, description }: MessageThreadProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const operator = useAppKind() === 'backoffice';
  const headingId = useId();
  const location = useLocation();
  const { confirm, dialog } = useConfirm();
  const { canAccess: canCreate } = useCanAccess({ resource: 'messages', action: 'create' });
  const { canAccess: canEdit } = useCanAccess({ resource: 'messages', action: 'edit' });
  const { canAccess: canDelete } = useCanAccess({ resource: 'messages', action: 'delete' });
  const mentions = useMentionCandidates(operator && !!(canCreate || canEdit));
  const { identity } = useGetIdentity();
  const placeholders = useMemo(
    () => placeholderValues(morphType, record, identity?.fullName),
    [morphType, record, identity?.fullName],
  );

  const { data, isPending, refetch, hasNextPage, fetchNextPage, isFetchingNextPage } =
    useInfiniteGetList<ThreadMessage>('messages', {
      pagination: { page: 1, perPage: THREAD_PAGE_SIZE },
      sort: { field: 'created_at', order: 'DESC' },
      filter: { morphable_type: morphType, morphable_id: record.id },
      meta: { with: ['attachments'], list: 'thread' },
    });
  // Oldest first on screen; a message that moved to the next page while paging shows once.
  const messages = useMemo(() => {
    const seen = new Set<string>();
    return (data?.pages ?? [])
      .flatMap((p) => p.data)
      .filter((m) => !seen.has(String(m.id)) && seen.add(String(m.id)))
      .reverse();
  }, [data]);
  const now = useNow(RELATIVE_TIME_REFRESH_MS, data);
  const reload = useCallback(() => void refetch(), [refetch]);
  useReloadOnEvent(reload);
  // A message written elsewhere (a client's reply, a colleague's note) appears without a reload.
  useLive(({ event, data }) => {
    if (
      event === 'message' &&
      data?.morphable_type === morphType &&
      String(data.morphable_id) === String(record.id)
    )
      reload();
  });

  // SPEC 2: #message-{id} scrolls to that message and highlights it, once it is there.
  const targetId = messageIdFromHash(location.hash);
  const highlighted = targetId && messages.some((m) => String(m.id) === targetId) ? targetId : null;
  const missing = targetId !== null && !highlighted && !isPending;
  useEffect(() => {
    if (missing && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [missing, hasNextPage, isFetchingNextPage, fetchNextPage]);
  useEffect(() => {
    if (highlighted) document.getElementById(messageAnchor(highlighted))?.scrollIntoView({ block: 'center' });
  }, [highlighted]);

  const type = translate('resources.messages.name', { smart_count: 1 });

  const save = async (message: ThreadMessage, html: string) => {
    try {
      await dataProvider.update('messages', {
        id: message.id as Identifier,
        data: { message: html },
        previousData: message,
      });
      notify('app.notifications.updated', { type: 'success', messageArgs: { type } });
      reload();
    } catch (error) {
      const text = (error as { message?: string }).message;
      if (text && text !== 'app.errors.silent') notify(text, { type: 'error' });
      throw error;
    }
  };

  const remove = async (message: ThreadMessage) => {
    try {
      await confirm();
    } catch (error) {
      if (error instanceof NotConfirmedError) return;
      throw error;
    }
    try {
      await dataProvider.delete('messages', { id: message.id, previousData: message });
      notify('app.notifications.deleted', { type: 'success', messageArgs: { type } });
      reload();
    } catch (error) {
      const text = (error as { message?: string }).message;
      if (text && text !== 'app.errors.silent') notify(text, { type: 'error' });
    }
  };

  return (
    <Box component="section" aria-labelledby={headingId} data-testid="message-thread">
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {translate('app.messages.title')}
      </Typography>
      {isPending ? (
        <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
      ) : messages.length === 0 ? (
        <Typography color="text.secondary">{translate('app.messages.empty')}</Typography>
      ) : (
        <Stack spacing={1.5} component="div">
          {hasNextPage && (
            <Box>
              <Button onClick={() => void fetchNextPage()} disabled={isFetchingNextPage} variant="text">
                {translate('app.messages.load_older')}
              </Button>
            </Box>
          )}
          {messages.map((message) => (
            <MessageItem
              key={message.id}
              message={message}
              now={now}
              highlighted={highlighted === String(message.id)}
              operator={operator}
              canEdit={operator && !!canEdit && message.type !== 'status-changed'}
              canDelete={operator && !!canDelete}
              onSave={save}
              onDelete={(m) => void remove(m)}
              onSenderDecided={reload}
              mentions={mentions}
            />
          ))}
        </Stack>
      )}
      {canCreate && (
        <MessageForm
          morphType={morphType}
          morphId={record.id}
          portal={!operator}
          canSend={canSendToClient(record, messages)}
          description={description}
          mentions={mentions}
          placeholders={operator ? placeholders : undefined}
          onSent={reload}
        />
      )}
      {dialog}
    </Box>
  );
}
