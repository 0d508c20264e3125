/**
 * The value input of one condition row (./ConditionsInput.tsx), by the field's kind: the list's own
 * selectors for enumerations and related records (src/resources/fields/FilterControl.tsx, without
 * '(none)' and 'me'), yes/no, a text, a number, a day or a moment. A rule's dates are fixed values: the
 * builder language has no "today" (the list's date presets become fixed dates when a list is read).
 */
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Box from '@mui/material/Box';
import { useTranslate } from 'react-admin';
import type { Field, Resource } from '../../../common/schema/types.ts';
import { sanitizeNumericInput } from '../../../common/format.ts';
import type { ConditionKind, ConditionRow } from '../../../common/automation/condition-rows.ts';
import { FilterControl } from '../../resources/fields/FilterControl.tsx';

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO moment as a datetime-local input's text, in the browser's time. */
export function localInputOf(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

interface ScalarProps {
  kind: ConditionKind;
  label: string;
  value: unknown;
  onChange: (value: unknown) => void;
}

/** One value typed or picked (not a selector: those are the list's). */
function ScalarInput({ kind, label, value, onChange }: ScalarProps) {
  const translate = useTranslate();
  const common = { size: 'small' as const, label, sx: { minWidth: 160, flex: 1 } };
  if (kind === 'boolean')
    return (
      <TextField
        {...common}
        select
        value={value === true ? 'true' : value === false ? 'false' : ''}
        onChange={(e) => onChange(e.target.value === 'true')}
      >
        <MenuItem value="true">{translate('list.yes')}</MenuItem>
        <MenuItem value="false">{translate('list.no')}</MenuItem>
      </TextField>
    );
  if (kind === 'date')
    return (
      <TextField
        {...common}
        type="date"
        value={typeof value === 'string' ? value : ''}
        onChange={(e) => onChange(e.target.value)}
        slotProps={{ inputLabel: { shrink: true } }}
      />
    );
  if (kind === 'datetime')
    return (
      <TextField
        {...common}
        type="datetime-local"
        value={localInputOf(value)}
        onChange={(e) => {
          const d = new Date(e.target.value);
          onChange(Number.isNaN(d.getTime()) ? '' : d.toISOString());
        }}
        slotProps={{ inputLabel: { shrink: true } }}
      />
    );
  if (kind === 'number' || kind === 'select')
    return (
      <TextField
        {...common}
        value={value === null || value === undefined ? '' : String(value)}
        onChange={(e) => {
          const text = sanitizeNumericInput(e.target.value);
          const n = Number(text);
          onChange(text === '' || text === '-' || !Number.isFinite(n) ? text : n);
        }}
        slotProps={{ htmlInput: { inputMode: 'decimal' } }}
      />
    );
  return (
    <TextField
      {...common}
      value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

export interface ConditionValueProps {
  resource: Resource;
  field: Field;
  kind: ConditionKind;
  row: ConditionRow;
  onChange: (value: unknown) => void;
}

export function ConditionValue({ resource, field, kind, row, onChange }: ConditionValueProps) {
  const translate = useTranslate();
  const t = (key: string) => translate(`automation_conditions.${key}`);
  if (row.op === 'null' || row.op === 'notnull') return null;
  if (row.op === 'between') {
    const [from, to] = Array.isArray(row.value) ? row.value : ['', ''];
    return (
      <Box sx={{ display: 'flex', gap: 1, flex: 2, flexWrap: 'wrap' }}>
        <ScalarInput kind={kind} label={t('from')} value={from} onChange={(v) => onChange([v, to])} />
        <ScalarInput kind={kind} label={t('to')} value={to} onChange={(v) => onChange([from, v])} />
      </Box>
    );
  }
  if (kind === 'select') {
    const many = row.op === 'in';
    const current = many ? (Array.isArray(row.value) ? row.value : []) : row.value === '' ? [] : [row.value];
    return (
      <Box sx={{ minWidth: 200, flex: 2 }}>
        <FilterControl
          resource={resource}
          field={field}
          plain
          shownLabel
          label={t(many ? 'values' : 'value')}
          value={current.filter((v) => v !== null && v !== undefined)}
          onChange={(next) => {
            const list = Array.isArray(next) ? next : [];
            // One value for is / is not: the last picked replaces the one before.
            onChange(many ? list : (list[list.length - 1] ?? ''));
          }}
        />
      </Box>
    );
  }
  return <ScalarInput kind={kind} label={t('value')} value={row.value} onChange={onChange} />;
}
