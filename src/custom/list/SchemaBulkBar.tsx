/**
 * The schema's bulk actions on a list (x-bulk, issue 18 item 3): set one of its fields to one value on
 * every selected row, or run one of its actions (close, merge) on them, in one call to
 * POST /api/{resource}/bulk. The selection is the rows ticked on the page or, when the whole page is
 * ticked, every row of the list's filter (the filter is sent, not the ids: the server finds the rows and
 * caps their number). The toast counts what changed, as the server counted it.
 */
import { useState } from 'react';
import { Box, Button, MenuItem, TextField, Typography } from '@mui/material';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import {
  Confirm,
  useDataProvider,
  useGetList,
  useListContext,
  useLocaleState,
  useNotify,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import type { Resource } from '../../../common/schema/types.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { filterToBuilder } from '../../dataProvider/builder.ts';
import { registry } from '../../schema.ts';
import { pickableFilter } from '../forms/pickable.ts';
import { useSmallList } from '../forms/smallList.ts';

/** The lists a bulk field chooses from are short (named lists, operators): one page holds them. */
const LIST_PAGE = { page: 1, perPage: 100 };

/** The resource a field points at (its belongsTo relation). */
function targetOf(resource: Resource, field: string): string | undefined {
  const relation = Object.values(resource.relations).find((r) => r.kind === 'belongsTo' && r.key === field);
  return relation?.kind === 'belongsTo' ? relation.resource : undefined;
}

function FieldPicker({
  resource,
  field,
  disabled,
  onPick,
}: {
  resource: Resource;
  field: string;
  disabled: boolean;
  onPick: (field: string, value: number | null) => void;
}) {
  const translate = useTranslate();
  const target = registry.require(targetOf(resource, field)!);
  const [sortField, order] = target.defaultSort;
  // Only what may become the new value (x-pickable: no archived operator).
  const filter = pickableFilter(target);
  // A small list (statuses, priorities) is the one the list's filter selectors read already (the same
  // query, one request); a longer one is read here, its first page.
  const { small, records } = useSmallList(target.name, target.defaultSort, true, filter);
  const { data: firstPage } = useGetList(
    target.name,
    { pagination: LIST_PAGE, sort: { field: sortField, order: order === 'desc' ? 'DESC' : 'ASC' }, filter },
    { enabled: small === false },
  );
  const data = small ? records : firstPage;
  const nullable = resource.fields[field]?.nullable === true;
  return (
    <TextField
      select
      size="small"
      label={translate(`resources.${resource.name}.fields.${field}`)}
      value=""
      disabled={disabled || !data}
      onChange={(event) => onPick(field, event.target.value === '-' ? null : Number(event.target.value))}
      // Two to a row on a phone, so the bar stays short above the cards.
      sx={{ width: { xs: 'calc(50% - 4px)', sm: 170 } }}
      slotProps={{ select: { SelectDisplayProps: { 'data-testid': `bulk-${field}` } as object } }}
    >
      {nullable && (
        <MenuItem value="-">
          <em>{translate('app.bulk.none')}</em>
        </MenuItem>
      )}
      {(data ?? []).map((r: RaRecord) => (
        <MenuItem key={r.id} value={Number(r.id)}>
          {String(r[target.label] ?? r.id)}
        </MenuItem>
      ))}
    </TextField>
  );
}

export default function SchemaBulkBar({
  resource,
  fields,
  actions,
  selected,
  pageCount,
  total,
  providerFilter,
  onDone,
}: {
  resource: Resource;
  /** The x-bulk fields the user may set, and the x-bulk actions they may run. */
  fields: string[];
  actions: string[];
  selected: Identifier[];
  pageCount: number;
  total: number;
  providerFilter: Record<string, unknown>;
  onDone: () => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const [busy, setBusy] = useState(false);
  const [allOfFilter, setAllOfFilter] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const { data: rows } = useListContext();
  const wholePage = selected.length > 0 && selected.length === pageCount;
  const everything = allOfFilter && wholePage && total > pageCount;
  const count = everything ? total : selected.length;

  const run = async (action: string, changes?: Record<string, unknown>) => {
    setBusy(true);
    try {
      const target = everything ? { builder: filterToBuilder(providerFilter) } : { ids: selected };
      const answer = await dataProvider.collectionAction<{ count: number }>(resource.name, 'bulk', {
        action,
        ...target,
        ...(changes ? { changes } : {}),
      });
      const name = translate(`resources.${resource.name}.name`, { smart_count: answer.count });
      // German nouns keep their capital; Dutch and English ones are lower case in a sentence.
      notify('app.bulk.changed', {
        type: 'success',
        messageArgs: {
          smart_count: answer.count,
          name: locale === 'de' ? name : name.toLocaleLowerCase(locale),
        },
      });
      setAllOfFilter(false);
      onDone();
    } catch (error) {
      notify((error as Error).message || 'app.errors.generic', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const none = selected.length === 0;
  // The selected rows by their labels, in the order they were selected.
  const labelOf = (id: Identifier) => {
    const row = rows?.find((r: RaRecord) => r.id === id);
    return String(row?.[resource.label] ?? id);
  };
  const [kept, ...others] = selected.map(labelOf);
  const merging = {
    kept,
    merged: new Intl.ListFormat(locale, { type: 'conjunction' }).format(others),
    smart_count: others.length,
  };
  return (
    <Box
      role="toolbar"
      aria-label={translate('app.bulk.toolbar')}
      sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}
    >
      <Typography variant="body2" sx={{ mr: 1, width: { xs: '100%', sm: 'auto' } }} aria-live="polite">
        {everything
          ? translate('app.bulk.all_of_filter', { smart_count: total })
          : translate('app.bulk.selected', { smart_count: selected.length })}
      </Typography>
      {wholePage && total > pageCount && (
        <Button size="small" startIcon={<DoneAllIcon />} onClick={() => setAllOfFilter(!allOfFilter)}>
          {allOfFilter
            ? translate('app.bulk.only_page')
            : translate('app.bulk.select_filter', { smart_count: total })}
        </Button>
      )}
      {fields.map((field) => (
        <FieldPicker
          key={field}
          resource={resource}
          field={field}
          disabled={busy || none}
          onPick={(name, value) => void run('update', { [name]: value })}
        />
      ))}
      {actions.map((action) => (
        <Button
          key={action}
          size="small"
          variant="outlined"
          disabled={busy || none || (action === 'merge' && (everything || selected.length < 2))}
          onClick={() => setConfirming(action)}
        >
          {translate(`app.bulk.${action}`)}
        </Button>
      ))}
      <Confirm
        isOpen={confirming !== null}
        loading={busy}
        // The dialog says what the action does, and its button too: a merge names the rows it merges
        // into which (the server keeps the one selected first and closes the others).
        title={
          confirming === 'merge'
            ? translate('app.bulk.merge_title', merging)
            : translate(`app.bulk.${confirming ?? 'close'}`)
        }
        content={
          confirming === 'merge'
            ? translate('app.bulk.confirm_merge', merging)
            : translate(`app.bulk.confirm_${confirming ?? 'close'}`, { smart_count: count })
        }
        confirm={`app.bulk.${confirming ?? 'close'}`}
        onConfirm={() => {
          const action = confirming!;
          setConfirming(null);
          void run(action);
        }}
        onClose={() => setConfirming(null)}
      />
    </Box>
  );
}
