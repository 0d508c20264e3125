/**
 * One message of a thread (SPEC 2, 4): who wrote it (name, and an avatar from gravatar or the
 * acronym/initials when there is no picture), when (relative, refreshed by the thread), whether it was
 * sent by the client, received by the client or is an internal note (operators also see 'Not visible
 * to the client', a warning when its e-mail to the client was given up, and a mail whose sender was not
 * verified, with confirm and reject: SenderCheck.tsx), its text and files. A
 * status change is one line: the new status and who set it.
 * Operators may edit (saving without a change just closes the editor, SPEC 4) and delete it, except a
 * client's message, which stays (the server refuses; docs/decisions.md). An edited message says so, with
 * the time of the edit, to operators and clients alike (issue 18).
 */
import { Fragment, lazy, Suspense, useId, useMemo, useRef, useState } from 'react';
import { Alert, Avatar, Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import DeleteIcon from '@mui/icons-material/Delete';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import SyncAlt from '@mui/icons-material/SyncAlt';
import { Link, useCanAccess, useLocaleState, useTranslate } from 'react-admin';
import type { Editor } from '@tiptap/react';
import { formatDateTime, parseDate, relativeTime } from '../../../common/format.ts';
import AttachmentList from './AttachmentList.tsx';
import SenderCheck from './SenderCheck.tsx';
import {
  actorInitials,
  cleanMessageHtml,
  messageAnchor,
  messageKind,
  type ThreadMessage,
} from './helpers.ts';
import type { MentionCandidate } from './mentions.tsx';

const MessageEditor = lazy(() => import('./MessageEditor.tsx'));

/** Background and edge per kind; text stays black on all of them (AA contrast). */
const KIND_STYLE = {
  sent: { bgcolor: '#e8f1fb', borderColor: '#1a4f8b' },
  received: { bgcolor: '#ffffff', borderColor: '#5f6b7a' },
  internal_note: { bgcolor: '#fff6d6', borderColor: '#8a5a00' },
} as const;

export interface MessageItemProps {
  message: ThreadMessage;
  now: Date;
  highlighted: boolean;
  /** Back office: the hidden-from-client marker, edit and delete. */
  operator: boolean;
  canEdit: boolean;
  canDelete: boolean;
  onSave?: (message: ThreadMessage, html: string) => Promise<void>;
  onDelete?: (message: ThreadMessage) => void;
  /** An operator confirmed or rejected the mail's unverified sender: the thread reads it again. */
  onSenderDecided?: () => void;
  mentions?: MentionCandidate[];
}

function ActorAvatar({ message }: { message: ThreadMessage }) {
  const actor = message.actor;
  return (
    <Avatar
      src={actor?.gravatar ?? undefined}
      alt=""
      aria-hidden="true"
      sx={{ width: 40, height: 40, fontSize: '0.95rem', bgcolor: actor?.is_operator ? '#1a4f8b' : '#455a64' }}
      slotProps={{ img: { referrerPolicy: 'no-referrer', loading: 'lazy' } }}
    >
      {actorInitials(actor)}
    </Avatar>
  );
}

function When({ value, now }: { value: string; now: Date }) {
  const [locale] = useLocaleState();
  return (
    <Typography
      component="time"
      variant="body2"
      color="text.secondary"
      dateTime={value}
      title={formatDateTime(value, locale)}
    >
      {/* A message is never written in the future: a server clock ahead of this one still reads 'now'. */}
      {relativeTime(value, new Date(Math.max(now.getTime(), parseDate(value)?.getTime() ?? 0)), locale)}
    </Typography>
  );
}

/**
 * The message's mail to the client was given up (issue 15, item 4): said in the user's language (the
 * stored error is the server's English, kept as the title), with the way to the outgoing mail list
 * for whoever may open it, where the mail can be tried again.
 */
function MailGivenUp({ error }: { error: string }) {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'mail-outbox', action: 'list' });
  return (
    <Alert
      severity="warning"
      variant="outlined"
      data-testid="mail-given-up"
      // A standing fact of the message, not news: no live region (MUI's default role is alert).
      role="note"
      title={error}
      sx={{ mt: 1, bgcolor: '#fff8e1', color: '#4d2e00', py: 0, '& .MuiAlert-message': { minWidth: 0 } }}
    >
      {translate('app.messages.mail_given_up')}
      {canAccess && (
        <>
          {' '}
          <Link to="/mail-outbox" sx={{ color: '#1a4f8b', fontWeight: 500 }}>
            <WordsWhole text={translate('app.messages.mail_outbox')} />
          </Link>
        </>
      )}
    </Alert>
  );
}

/**
 * A text that wraps between its words only: 'e-mail' would break at its hyphen. The whole text on one
 * line did not fit a phone in German ('Ausgehende E-Mails öffnen' is wider than the notice at 375 px).
 */
function WordsWhole({ text }: { text: string }) {
  return text.split(' ').map((word, i) => (
    <Fragment key={i}>
      {i > 0 && ' '}
      <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
        {word}
      </Box>
    </Fragment>
  ));
}

/** "edited 5 March 14:30": the message's text is not the one first written. */
function Edited({ value }: { value: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <Typography component="span" variant="body2" color="text.secondary" data-testid="message-edited">
      {translate('app.messages.edited', { time: formatDateTime(value, locale) })}
    </Typography>
  );
}

export default function MessageItem({
  message,
  now,
  highlighted,
  operator,
  canEdit,
  canDelete,
  onSave,
  onDelete,
  onSenderDecided,
  mentions,
}: MessageItemProps) {
  const translate = useTranslate();
  const headingId = useId();
  const filesId = useId();
  const kind = messageKind(message);
  const actorName = message.actor?.full_name || translate('app.messages.unknown_actor');
  const quotedLabel = translate('app.messages.quoted_text');
  // A mail's quoted previous reply is stored folded (<details>, issue 19); its toggle in the reader's language.
  const html = useMemo(
    () =>
      cleanMessageHtml(message.message ?? '').replace(
        /<summary>[^<]*<\/summary>/g,
        () => `<summary>${quotedLabel.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}</summary>`,
      ),
    [message.message, quotedLabel],
  );
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  const editorRef = useRef<Editor | null>(null);
  const startHtml = useRef<string | null>(null);

  const anchor = {
    id: messageAnchor(message.id),
    'data-testid': 'message',
    'data-message-id': String(message.id),
    'data-kind': kind,
    'data-highlighted': highlighted ? 'true' : undefined,
  };
  const highlight = highlighted
    ? { outline: '3px solid #1a4f8b', outlineOffset: 2, boxShadow: '0 0 0 6px rgba(26,79,139,0.15)' }
    : {};

  if (message.type === 'status-changed') {
    const status = message.data?.status?.name ?? '';
    return (
      <Box
        component="article"
        {...anchor}
        aria-label={translate('app.messages.status_changed', { status, actor: actorName })}
        sx={{ display: 'flex', alignItems: 'center', gap: 1, py: 0.5, px: 1, borderRadius: 1, ...highlight }}
      >
        <SyncAlt fontSize="small" aria-hidden="true" sx={{ color: 'text.secondary' }} />
        <Typography variant="body2" sx={{ flexGrow: 1 }}>
          {translate('app.messages.status_changed', { status, actor: actorName })}
        </Typography>
        <When value={message.created_at} now={now} />
      </Box>
    );
  }

  const save = async () => {
    const editor = editorRef.current;
    const current = editor && !editor.isDestroyed ? editor.getHTML() : startHtml.current;
    // SPEC 4: editing with no changes just closes editing.
    if (current === null || current === startHtml.current || !onSave) {
      setEditing(false);
      return;
    }
    setSaving(true);
    try {
      await onSave(message, current);
      setEditing(false);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper
      component="article"
      variant="outlined"
      {...anchor}
      aria-labelledby={headingId}
      sx={{
        p: { xs: 1.5, sm: 2 },
        borderLeftWidth: 4,
        ...KIND_STYLE[kind],
        color: '#000000',
        scrollMarginTop: 80,
        transition: 'box-shadow 0.3s',
        ...highlight,
      }}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <ActorAvatar message={message} />
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 1, rowGap: 0.5 }}>
            <Typography id={headingId} component="h3" variant="subtitle2" sx={{ fontWeight: 700 }}>
              {actorName}
            </Typography>
            <Chip
              size="small"
              variant="outlined"
              label={translate(`app.messages.${kind}`)}
              sx={{ color: '#000000', borderColor: 'rgba(0,0,0,0.4)' }}
            />
            {message.type === 'work-order-signed' && (
              <Chip
                size="small"
                variant="outlined"
                label={translate('app.messages.work_order_signed')}
                sx={{ color: '#000000' }}
              />
            )}
            {operator && !message.visible_to_client && (
              <Box
                component="span"
                data-testid="hidden-from-client"
                sx={{
                  display: 'inline-flex',
                  alignItems: 'center',
                  gap: 0.5,
                  fontSize: '0.8125rem',
                  color: '#6b4500',
                  fontWeight: 500,
                }}
              >
                <VisibilityOff sx={{ fontSize: 16 }} aria-hidden="true" />
                {translate('app.messages.hidden_from_client')}
              </Box>
            )}
            <Box sx={{ flexGrow: 1 }} />
            {message.edited_at && <Edited value={message.edited_at} />}
            <When value={message.created_at} now={now} />
          </Box>
          {editing ? (
            <Box sx={{ mt: 1 }}>
              <Suspense fallback={null}>
                <MessageEditor
                  initialHtml={message.message}
                  label={translate('app.messages.edit_label')}
                  onChange={() => undefined}
                  disabled={saving}
                  mentions={mentions}
                  editorRef={(e) => {
                    editorRef.current = e;
                  }}
                  // What the editor makes of the stored text: the measure of 'no changes'.
                  onReady={(e) => {
                    startHtml.current = e.getHTML();
                  }}
                  height={200}
                />
              </Suspense>
              <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
                <Button variant="contained" onClick={() => void save()} disabled={saving}>
                  {translate('app.messages.save')}
                </Button>
                <Button onClick={() => setEditing(false)} disabled={saving}>
                  {translate('ra.action.cancel')}
                </Button>
              </Stack>
            </Box>
          ) : (
            <Box
              className="message-body"
              sx={{
                mt: 0.5,
                overflowWrap: 'anywhere',
                '& p': { my: 0.5 },
                '& img': { maxWidth: '100%', height: 'auto' },
                '& a': { color: '#1a4f8b' },
                '& .mention': { color: '#1a4f8b', fontWeight: 500 },
              }}
              dangerouslySetInnerHTML={{ __html: html }}
            />
          )}
          {operator && message.mail_error && <MailGivenUp error={message.mail_error} />}
          {operator && <SenderCheck message={message} onDecided={() => onSenderDecided?.()} />}
          <AttachmentList attachments={message.attachments ?? []} headingId={filesId} />
          {!editing && (canEdit || (canDelete && !message.is_from_client)) && (
            <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
              {canEdit && (
                <Button
                  size="small"
                  startIcon={<EditIcon />}
                  onClick={() => {
                    startHtml.current = null;
                    setEditing(true);
                  }}
                >
                  {translate('app.messages.edit')}
                </Button>
              )}
              {canDelete && !message.is_from_client && (
                <Button
                  size="small"
                  color="error"
                  startIcon={<DeleteIcon />}
                  onClick={() => onDelete?.(message)}
                >
                  {translate('app.messages.delete')}
                </Button>
              )}
            </Stack>
          )}
        </Box>
      </Stack>
    </Paper>
  );
}
