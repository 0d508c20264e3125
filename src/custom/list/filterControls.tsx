/**
 * The header filter controls (SPEC 2, 5, 9). Each takes an accessible `label`, the field's filter-state
 * value and `onChange` (undefined clears the filter). Which field gets which control is decided by the
 * type table in src/resources/fields/.
 */
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Paper, { type PaperProps } from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useGetList, useGetMany, useTranslate } from 'react-admin';
import { sanitizeNumericInput } from '../../../common/format.ts';
import {
  applyNoneRule,
  DATE_PRESETS,
  dateWireValue,
  DATE_UNITS,
  isDateFilterValue,
  selectValues,
  type DateFilterValue,
  type DatePreset,
  type DateUnit,
  type SelectValue,
} from './filters.ts';
import { useDebounced } from './useDebounced.ts';
import { useSmallList } from '../forms/smallList.ts';

/** SPEC 9: text filters wait 250 ms, search selectors 300 ms. */
export const TEXT_FILTER_DEBOUNCE_MS = 250;
export const SEARCH_DEBOUNCE_MS = 300;
/** SPEC 5: search selectors start after 2 typed characters. */
export const MIN_SEARCH_CHARS = 2;

export interface FilterControlProps {
  /** The accessible name, e.g. 'Filter on Description'. */
  label: string;
  value: unknown;
  onChange: (value: unknown) => void;
  /** The label shown above the value too (a form's row), not only named to assistive technology. */
  shownLabel?: boolean;
}

/** A header control is as wide as its column: the columns share the table's width (columnWidths.ts). */
const fieldSx = { minWidth: 0 } as const;

/** Text (contains) or, with `numeric`, a number (equals; SPEC 5 numeric-only input). Debounced 250 ms. */
export function TextFilter({ label, value, onChange, numeric }: FilterControlProps & { numeric?: boolean }) {
  const [text, setText] = useState(
    typeof value === 'string' || typeof value === 'number' ? String(value) : '',
  );
  const emit = useDebounced(
    (v: string) => onChange(v.trim() === '' ? undefined : v),
    TEXT_FILTER_DEBOUNCE_MS,
  );
  return (
    <TextField
      size="small"
      fullWidth
      sx={fieldSx}
      value={text}
      onChange={(event) => {
        const next = numeric ? sanitizeNumericInput(event.target.value) : event.target.value;
        setText(next);
        emit(next);
      }}
      slotProps={{ htmlInput: { 'aria-label': label, inputMode: numeric ? 'decimal' : undefined } }}
    />
  );
}

/** All / yes / no. */
export function BooleanFilter({ label, value, onChange }: FilterControlProps) {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      fullWidth
      sx={fieldSx}
      value={value === true ? 'true' : value === false ? 'false' : ''}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value === 'true')}
      slotProps={{ select: { native: true }, htmlInput: { 'aria-label': label } }}
    >
      <option value="">{translate('list.filter.all')}</option>
      <option value="true">{translate('list.yes')}</option>
      <option value="false">{translate('list.no')}</option>
    </TextField>
  );
}

/** Today as a calendar day (YYYY-MM-DD): where a new range starts. */
const today = () => dateWireValue(new Date(), 'date');

/** A date preset; 'lte' adds a number and a unit (now plus value·unit), 'range' two days. */
export function DateFilter({ label, value, onChange }: FilterControlProps) {
  const translate = useTranslate();
  const current: DateFilterValue | undefined = isDateFilterValue(value) ? value : undefined;
  const [amount, setAmount] = useState(current?.value === undefined ? '' : String(current.value));
  const unit: DateUnit = current?.unit ?? 'days';
  const emitAmount = useDebounced((v: string) => {
    onChange({ preset: 'lte', unit, ...(v === '' ? {} : { value: Number(v) }) });
  }, TEXT_FILTER_DEBOUNCE_MS);
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
      <TextField
        select
        size="small"
        fullWidth
        sx={fieldSx}
        value={current?.preset ?? ''}
        onChange={(event) => {
          const preset = event.target.value as DatePreset | '';
          if (preset === '') onChange(undefined);
          else if (preset === 'lte')
            onChange({ preset, unit, ...(amount === '' ? {} : { value: Number(amount) }) });
          else if (preset === 'range') onChange({ preset, from: today(), to: today() });
          else onChange({ preset });
        }}
        slotProps={{ select: { native: true }, htmlInput: { 'aria-label': label } }}
      >
        <option value="">{translate('list.filter.all')}</option>
        {DATE_PRESETS.map((preset) => (
          <option key={preset} value={preset}>
            {translate(`list.date.${preset}`)}
          </option>
        ))}
      </TextField>
      {current?.preset === 'range' && (
        <Box sx={{ display: 'flex', gap: 0.5, width: '100%' }}>
          {(['from', 'to'] as const).map((bound) => (
            <TextField
              key={bound}
              type="date"
              size="small"
              sx={{ flex: 1, minWidth: 0 }}
              value={current[bound] ?? ''}
              onChange={(event) =>
                event.target.value && onChange({ ...current, [bound]: event.target.value })
              }
              slotProps={{ htmlInput: { 'aria-label': translate(`list.date.${bound}`) } }}
            />
          ))}
        </Box>
      )}
      {current?.preset === 'lte' && (
        <Box sx={{ display: 'flex', gap: 0.5, width: '100%' }}>
          <TextField
            size="small"
            sx={{ width: 64, flex: 'none' }}
            value={amount}
            onChange={(event) => {
              const next = event.target.value.replace(/[^0-9-]/g, '');
              setAmount(next);
              emitAmount(next);
            }}
            slotProps={{ htmlInput: { 'aria-label': translate('list.date.amount'), inputMode: 'numeric' } }}
          />
          <TextField
            select
            size="small"
            sx={{ minWidth: 96, flex: 1 }}
            value={unit}
            onChange={(event) => onChange({ ...current, unit: event.target.value as DateUnit })}
            slotProps={{ select: { native: true }, htmlInput: { 'aria-label': translate('list.date.unit') } }}
          >
            {DATE_UNITS.map((u) => (
              <option key={u} value={u}>
                {translate(`list.date.units.${u}`)}
              </option>
            ))}
          </TextField>
        </Box>
      )}
    </Box>
  );
}

export interface Choice {
  id: SelectValue;
  label: string;
}

const HintContext = createContext<string | undefined>(undefined);

/** The popup of a search selector: the 'type N more characters' hint above the options. */
function HintPaper({ children, ...props }: PaperProps) {
  const hint = useContext(HintContext);
  return (
    <Paper {...props}>
      {hint && (
        <Typography variant="body2" color="text.primary" sx={{ px: 2, py: 1 }} role="status">
          {hint}
        </Typography>
      )}
      {children}
    </Paper>
  );
}

interface ChoicesFilterProps extends FilterControlProps {
  choices: Choice[];
  /** Labels of selected values that are not among `choices` (search results change). */
  selected?: Choice[];
  loading?: boolean;
  hint?: string;
  /** Server-side search: options are not filtered again in the browser. */
  onSearch?: (text: string) => void;
  /** Offer 'me' (the field has `x-me`: the caller's id, line or categories, resolved by the server). */
  me?: boolean;
  /** No '(none)' option: where "is empty" is an operator of its own (a rule's conditions editor). */
  noNone?: boolean;
}

/**
 * A multiple selector with the '(none)' option (id null): choosing it clears the other selections and
 * choosing another clears it (SPEC 5).
 */
export function ChoicesFilter({
  label,
  value,
  onChange,
  choices,
  selected,
  loading,
  hint,
  onSearch,
  me,
  noNone,
  shownLabel,
}: ChoicesFilterProps) {
  const translate = useTranslate();
  const none: Choice = { id: null, label: translate('list.filter.none') };
  const meChoice: Choice = { id: 'me', label: translate('list.filter.me') };
  const options = [...(noNone ? [] : [none]), ...(me ? [meChoice] : []), ...choices];
  const ids = selectValues(value);
  const known = [...options, ...(selected ?? [])];
  const chosen = ids.map(
    (id) =>
      known.find((c) => c.id === id) ?? {
        id,
        label: id === 'me' ? translate('list.filter.me') : String(id),
      },
  );
  // The same selection must stay the same array: Autocomplete clears the typed text when its value changes.
  const chosenKey = JSON.stringify(chosen);
  const current = useMemo(() => JSON.parse(chosenKey) as Choice[], [chosenKey]);
  return (
    <HintContext.Provider value={hint}>
      <Autocomplete<Choice, true>
        multiple
        size="small"
        fullWidth
        disableCloseOnSelect
        limitTags={1}
        sx={fieldSx}
        options={options}
        value={current}
        loading={loading}
        getOptionLabel={(o) => o.label}
        getOptionKey={(o) => String(o.id)}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        filterOptions={onSearch ? (o) => o : undefined}
        onInputChange={onSearch ? (_event, text) => onSearch(text) : undefined}
        onChange={(_event, next) => {
          const values = applyNoneRule(
            ids,
            next.map((c) => c.id),
          );
          onChange(values.length > 0 ? values : undefined);
        }}
        openText={translate('ra.action.open')}
        closeText={translate('ra.action.close')}
        clearText={translate('ra.action.clear_input_value')}
        loadingText={translate('ra.message.loading')}
        noOptionsText={translate('list.filter.no_options')}
        slots={{ paper: HintPaper }}
        renderInput={(params) => (
          <TextField
            {...params}
            label={shownLabel ? label : undefined}
            slotProps={{ htmlInput: { ...params.inputProps, 'aria-label': label } }}
          />
        )}
      />
    </HintContext.Provider>
  );
}

/** Enumerations: fixed, translated choices. */
export function EnumFilter(
  props: FilterControlProps & { choices: Choice[]; me?: boolean; noNone?: boolean },
) {
  return <ChoicesFilter {...props} />;
}

/** The search filter a related resource understands: its `x-search` through `q`, else its label. */
export function searchFilter(
  text: string,
  search: readonly string[],
  labelField: string,
): Record<string, unknown> {
  return search.length > 0 ? { q: text } : { [`${labelField}@like`]: text };
}

export interface ReferenceFilterProps extends FilterControlProps {
  /** Offer 'me' (the field has `x-me`). */
  me?: boolean;
  /** No '(none)' option (ChoicesFilter). */
  noNone?: boolean;
  /** The related resource. */
  reference: string;
  /** Its `x-label` field. */
  labelField: string;
  /** Its `x-search` fields. */
  search: readonly string[];
  /** Its `x-default-sort`. */
  sort?: readonly [string, 'asc' | 'desc'];
  /** Renders a related record's label (cut to the ellipsis limit). */
  format?: (text: unknown) => string;
}

/**
 * A selector on a belongsTo reference: a small list (smallList.ts) shows all its options at once; a large
 * one searches after 2 typed characters (SPEC 5).
 */
export function ReferenceFilter({
  reference,
  labelField,
  search,
  sort,
  format,
  ...props
}: ReferenceFilterProps) {
  const translate = useTranslate();
  const [input, setInput] = useState('');
  const [query, setQuery] = useState('');
  const setQueryLater = useDebounced(setQuery, SEARCH_DEBOUNCE_MS);
  const text = query.trim();
  const { small, records: all } = useSmallList(reference, sort);
  const enabled = small === false && text.length >= MIN_SEARCH_CHARS;
  const { data: found, isFetching } = useGetList(
    reference,
    {
      pagination: { page: 1, perPage: 25 },
      sort: sort
        ? { field: sort[0], order: sort[1] === 'desc' ? 'DESC' : 'ASC' }
        : { field: 'id', order: 'ASC' },
      filter: searchFilter(text, search, labelField),
      // Its own list: the provider cancels a pending request of the same list.
      meta: { list: 'filter-search' },
    },
    { enabled },
  );
  const ids = selectValues(props.value).filter((v): v is string | number => v !== null && v !== 'me');
  const { data: chosen } = useGetMany(reference, { ids }, { enabled: ids.length > 0 });
  const toChoice = (r: Record<string, any>): Choice => ({
    id: r.id,
    label: format ? format(r[labelField]) : String(r[labelField] ?? r.id),
  });
  if (small !== false) {
    // Every option is here: the selector filters them as one types, in the browser.
    return (
      <ChoicesFilter
        {...props}
        choices={all.map(toChoice)}
        selected={(chosen ?? []).filter(Boolean).map(toChoice)}
        loading={small === undefined}
      />
    );
  }
  const missing = MIN_SEARCH_CHARS - input.trim().length;
  const hint: ReactNode =
    missing > 0 ? translate('list.filter.type_more', { smart_count: missing }) : undefined;
  return (
    <ChoicesFilter
      {...props}
      choices={enabled ? (found ?? []).map(toChoice) : []}
      selected={(chosen ?? []).filter(Boolean).map(toChoice)}
      loading={enabled && isFetching}
      hint={hint as string | undefined}
      onSearch={(next) => {
        setInput(next);
        setQueryLater(next);
      }}
    />
  );
}
