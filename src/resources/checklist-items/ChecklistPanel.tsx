/**
 * A ticket's checklist (issue 37, item 4), a card below the ticket's fields in both apps: each item a
 * checkbox, ticked with who and when (the server writes them: server/resources/checklist-items/hooks.ts).
 * In the back office an operator who may also adds items, marks them required or shown to the client,
 * and moves them up and down (their positions); in the portal the client sees the items shown to clients
 * (the server sends no others) and ticks them. Read before the detail shows (readBeforeShow.ts), so the
 * tab bar below does not move when it arrives; nothing at all in the portal when there are no items.
 */
import { useState, type FormEvent } from 'react';
import { useSuspenseQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import { useLocaleState, useTranslate, type RaRecord } from 'react-admin';
import { formatDateTime } from '../../../common/format.ts';
import { storedUserMay } from '../../authProvider/index.ts';
import { RAW_BUILDER_KEY } from '../../dataProvider/builder.ts';
import { anyFailed, useReadBeforeShow } from '../../custom/detail/readBeforeShow.ts';
import { useReloadOnEvent } from '../../custom/detail/parts.tsx';
import { useActionCall, useActionsProvider } from '../../custom/detail/recordActions.tsx';
import { useAppKind } from '../../custom/appKind.ts';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { SlaCard } from '../tickets/sla/SlaCard.tsx';
import type { RecordActionsProps } from '../override-contract.ts';

const RESOURCE = 'checklist-items';
/** A checklist longer than this is a project, not a checklist: the card shows the first ones. */
const MAX_ITEMS = 100;

interface Item extends RaRecord {
  text: string;
  position: number;
  required?: boolean;
  visible_to_client?: boolean;
  done: boolean;
  done_at: string | null;
  done_by_name: string | null;
}

const key = (name: string) => `resources.${RESOURCE}.panel.${name}`;

export default function ChecklistPanel({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const [locale = 'nl'] = useLocaleState();
  const portal = useAppKind() === 'portal';
  const app = portal ? 'portal' : 'backoffice';
  const canTick = storedUserMay(app, RESOURCE, 'update');
  const canAdd = !portal && storedUserMay(app, RESOURCE, 'store');
  const read = useReadBeforeShow();
  const { data, refetch } = useSuspenseQuery(
    read.list(
      RESOURCE,
      {
        pagination: { page: 1, perPage: MAX_ITEMS },
        sort: { field: 'position', order: 'ASC' },
        filter: { [RAW_BUILDER_KEY]: [{ where: ['ticket_id', '=', record.id as number] }] },
        meta: { list: 'checklist' },
      },
      storedUserMay(app, RESOURCE, 'index'),
    ),
  );
  useReloadOnEvent(refetch);
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const [text, setText] = useState('');
  const [required, setRequired] = useState(false);
  const [visible, setVisible] = useState(false);

  if (data === null) return null;
  const title = translate(key('title'));
  if (anyFailed(data))
    return (
      <SlaCard title={title} testId="checklist">
        <LoadFailed compact text="app.errors.generic" onRetry={() => void refetch()} />
      </SlaCard>
    );
  const items = (data ?? []) as Item[];
  if (portal && items.length === 0) return null;
  const done = items.filter((i) => i.done).length;

  const save = (id: RaRecord['id'], changes: Record<string, unknown>, previous: Item) =>
    run(
      () => dataProvider.update(RESOURCE, { id, data: changes, previousData: previous }),
      { message: 'app.notifications.item_updated' },
      () => refetch(),
    );
  /** Swaps the positions of two neighbours (positions may repeat: the list's order then is by id). */
  const move = (index: number, by: -1 | 1) => {
    const item = items[index]!;
    const other = items[index + by]!;
    const [a, b] = item.position === other.position ? [index, index + by] : [other.position, item.position];
    void run(
      async () => {
        await dataProvider.update(RESOURCE, { id: item.id, data: { position: a }, previousData: item });
        await dataProvider.update(RESOURCE, { id: other.id, data: { position: b }, previousData: other });
      },
      { message: 'app.notifications.item_updated' },
      () => refetch(),
    );
  };
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    const position = items.reduce((max, i) => Math.max(max, i.position), 0) + 1;
    void run(
      () =>
        dataProvider.create(RESOURCE, {
          data: { ticket_id: record.id, text, required, visible_to_client: visible, position },
        }),
      {
        message: 'app.notifications.created',
        args: { type: translate(`resources.${RESOURCE}.name`, { smart_count: 1 }) },
      },
      () => {
        setText('');
        setRequired(false);
        setVisible(false);
        return refetch();
      },
    );
  };

  return (
    <SlaCard title={title} testId="checklist">
      {items.length > 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate(key('progress'), { done, total: items.length })}
        </Typography>
      ) : (
        <Typography color="text.secondary">{translate(key('empty'))}</Typography>
      )}
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {items.map((item, index) => (
          <Box
            component="li"
            key={item.id}
            data-checklist-item={item.id}
            sx={{
              display: 'flex',
              alignItems: 'flex-start',
              gap: 1,
              py: 0.5,
              borderTop: index ? 1 : 0,
              borderColor: 'divider',
            }}
          >
            <Box sx={{ flexGrow: 1, minWidth: 0 }}>
              <FormControlLabel
                sx={{
                  mr: 0,
                  alignItems: 'flex-start',
                  '& .MuiFormControlLabel-label': { pt: 1, overflowWrap: 'anywhere' },
                }}
                control={
                  <Checkbox
                    checked={item.done}
                    disabled={!canTick || busy}
                    onChange={(event) => void save(item.id, { done: event.target.checked }, item)}
                  />
                }
                label={
                  <>
                    {item.text}
                    {!portal && item.required && (
                      <Typography component="span" variant="body2" sx={{ fontWeight: 600, ml: 1 }}>
                        {translate(key('required'))}
                      </Typography>
                    )}
                  </>
                }
              />
              {item.done && item.done_at && (
                <Typography variant="body2" color="text.secondary" sx={{ ml: 4 }}>
                  {translate(key('done_by'), {
                    name: item.done_by_name ?? '?',
                    time: formatDateTime(item.done_at, locale),
                  })}
                </Typography>
              )}
            </Box>
            {!portal && item.visible_to_client && (
              <VisibilityOutlined
                fontSize="small"
                titleAccess={translate(key('shown_to_client'))}
                sx={{ mt: 1.25, color: 'text.secondary' }}
              />
            )}
            {!portal && canTick && (
              <Box sx={{ display: 'flex', flexShrink: 0 }}>
                <IconButton
                  size="small"
                  disabled={busy || index === 0}
                  aria-label={translate(key('move_up'), { text: item.text })}
                  onClick={() => move(index, -1)}
                >
                  <ArrowUpward fontSize="small" />
                </IconButton>
                <IconButton
                  size="small"
                  disabled={busy || index === items.length - 1}
                  aria-label={translate(key('move_down'), { text: item.text })}
                  onClick={() => move(index, 1)}
                >
                  <ArrowDownward fontSize="small" />
                </IconButton>
              </Box>
            )}
          </Box>
        ))}
      </Box>
      {canAdd && (
        <Box
          component="form"
          onSubmit={add}
          sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 2 }}
        >
          <TextField
            size="small"
            label={translate(key('new_item'))}
            value={text}
            onChange={(event) => setText(event.target.value)}
            slotProps={{ htmlInput: { maxLength: 500 } }}
            sx={{ flex: '1 1 16rem' }}
          />
          <FormControlLabel
            control={<Checkbox checked={required} onChange={(e) => setRequired(e.target.checked)} />}
            label={translate(`resources.${RESOURCE}.fields.required`)}
          />
          <FormControlLabel
            control={<Checkbox checked={visible} onChange={(e) => setVisible(e.target.checked)} />}
            label={translate(`resources.${RESOURCE}.fields.visible_to_client`)}
          />
          <Button type="submit" variant="outlined" disabled={busy || !text.trim()}>
            {translate(key('add'))}
          </Button>
        </Box>
      )}
    </SlaCard>
  );
}
