/**
 * Quick actions in the ticket detail's header (issue 18, item 4): assign to me, or to another operator,
 * and change the status or the priority, without opening the edit form. Each is the ordinary update
 * (PUT /api/tickets/{id} with the one changed field), so the permission (tenant.tickets.update), the
 * hooks, the status-changed message and the history apply as to an edit. Shown only to a user who may
 * update tickets.
 */
import { Box, Button, MenuItem, TextField } from '@mui/material';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import {
  useCanAccess,
  useDataProvider,
  useGetList,
  useGetOne,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import type { RecordActionsProps } from '../override-contract.ts';
import { useActionCall } from '../../custom/detail/recordActions.tsx';
import { requestReload } from '../../dataProvider/reload.ts';
import { getUser } from '../../dataProvider/storage.ts';
import { registry } from '../../schema.ts';
import { pickableFilter } from '../../custom/forms/pickable.ts';

/** The lists are short (SPEC 3 named lists, the tenant's operators): one page holds them. */
const LIST_PAGE = { page: 1, perPage: 100 };

/**
 * A named list's choices, in its own default order, labelled by its x-label in the user's language:
 * the records offered as a new value (x-pickable: no archived operator), and the current value even
 * when it is no longer offered, so the select shows what the ticket holds.
 */
function useChoices(resource: string, current: number | '') {
  const target = registry.require(resource);
  const [field, order] = target.defaultSort;
  const { data } = useGetList(resource, {
    pagination: LIST_PAGE,
    sort: { field, order: order === 'desc' ? 'DESC' : 'ASC' },
    filter: pickableFilter(target),
  });
  const listed = (data ?? []).some((r: RaRecord) => Number(r.id) === current);
  const { data: held } = useGetOne(
    resource,
    { id: current },
    { enabled: data !== undefined && current !== '' && !listed },
  );
  const records = [...(data ?? []), ...(held && !listed ? [held] : [])];
  return records.map((r: RaRecord) => ({ id: Number(r.id), name: String(r[target.label] ?? r.id) }));
}

function QuickSelect({
  field,
  resource,
  record,
  disabled,
  onPick,
}: {
  field: string;
  resource: string;
  record: RaRecord;
  disabled: boolean;
  onPick: (field: string, value: number | null) => void;
}) {
  const translate = useTranslate();
  const current = record[field] === null || record[field] === undefined ? '' : Number(record[field]);
  const choices = useChoices(resource, current);
  // Until the choices are there, the current value would be out of range: show nothing chosen.
  const value = choices.some((c) => c.id === current) ? current : '';
  return (
    <TextField
      select
      size="small"
      label={translate(`resources.tickets.fields.${field}`)}
      value={value}
      disabled={disabled || choices.length === 0}
      onChange={(event) => onPick(field, event.target.value === '' ? null : Number(event.target.value))}
      fullWidth={false}
      // Two to a row on a phone (the group's gap is 8 px): the detail's card starts a row higher.
      sx={{ width: { xs: 'calc(50% - 4px)', sm: 170 } }}
      slotProps={{ select: { SelectDisplayProps: { 'data-testid': `quick-${field}` } as object } }}
    >
      {field === 'operator_id' && (
        <MenuItem value="">
          <em>{translate('app.quick_actions.nobody')}</em>
        </MenuItem>
      )}
      {choices.map((c) => (
        <MenuItem key={c.id} value={c.id}>
          {c.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

export default function TicketQuickActions({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const dataProvider = useDataProvider();
  const { run, busy } = useActionCall();
  const { canAccess } = useCanAccess({ resource: 'tickets', action: 'edit' });
  const me = getUser()?.id;
  if (canAccess !== true) return null;

  const change = (field: string, value: number | null) => {
    if ((record[field] ?? null) === value) return;
    void run(
      () => dataProvider.update('tickets', { id: record.id, data: { [field]: value }, previousData: record }),
      {
        message: 'app.notifications.updated',
        args: { type: translate('resources.tickets.name', { smart_count: 1 }) },
      },
      requestReload,
    );
  };

  return (
    <Box
      role="group"
      aria-label={translate('app.quick_actions.label')}
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 1,
        width: { xs: '100%', sm: 'auto' },
      }}
    >
      {me !== undefined && record.operator_id !== me && (
        <Button
          variant="outlined"
          startIcon={<PersonAddIcon />}
          disabled={busy}
          onClick={() => change('operator_id', me)}
        >
          {translate('app.quick_actions.assign_to_me')}
        </Button>
      )}
      <QuickSelect field="operator_id" resource="operators" record={record} disabled={busy} onPick={change} />
      <QuickSelect
        field="status_id"
        resource="ticket-statuses"
        record={record}
        disabled={busy}
        onPick={change}
      />
      <QuickSelect
        field="priority_id"
        resource="priorities"
        record={record}
        disabled={busy}
        onPick={change}
      />
    </Box>
  );
}
