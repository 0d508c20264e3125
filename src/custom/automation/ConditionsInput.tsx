/**
 * The form input of a rule's conditions (`x-input: "automation-conditions"`): rows of field / operator /
 * value over the tickets' filterable fields (x-filter), the operators the field's kind has and the list
 * filters' value inputs; all rows must hold (the builder language has no or-groups). What it writes is
 * the builder list the API checks (server/automation/check-rule.ts), row for row
 * (common/automation/condition-rows.ts). A list the rows cannot hold (whereHas, a custom field, search)
 * opens as JSON text, which any list may also be edited as.
 */
import { useMemo, useRef, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { FieldTitle, useInput, useTranslate } from 'react-admin';
import {
  opKey,
  OPS_BY_KIND,
  itemsOf,
  rowComplete,
  rowsOf,
  withOp,
  type ConditionRow,
} from '../../../common/automation/condition-rows.ts';
import type { InputExtraProps } from '../../resources/fields/kinds.ts';
import { ConditionValue } from './ConditionValue.tsx';
import { useConditionFields } from './conditionFields.ts';

const jsonOf = (value: unknown) => JSON.stringify(value ?? [], null, 2);

export default function ConditionsInput(props: InputExtraProps) {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`automation_conditions.${key}`, options);
  const { tickets, fields, kindOf, labelOf } = useConditionFields();
  // What the user is still editing and the form value cannot say: a half-made row, unparsed JSON.
  const problem = useRef<string | undefined>(undefined);
  const { field, fieldState, formState } = useInput({
    source: props.source,
    resource: props.resource,
    validate: () => problem.current,
  });
  const initial = useMemo(() => rowsOf(field.value, kindOf), []); // eslint-disable-line react-hooks/exhaustive-deps
  const [rows, setRows] = useState<ConditionRow[]>(initial ?? []);
  const [raw, setRaw] = useState<string | undefined>(initial ? undefined : jsonOf(field.value));
  const rawRows = raw === undefined ? undefined : parseRows(raw);

  function parseRows(text: string): ConditionRow[] | undefined {
    try {
      return rowsOf(JSON.parse(text), kindOf);
    } catch {
      return undefined;
    }
  }

  const writeRows = (next: ConditionRow[]) => {
    setRows(next);
    const incomplete = next.findIndex((r) => !rowComplete(r));
    problem.current = incomplete < 0 ? undefined : t('incomplete', { number: incomplete + 1 });
    field.onChange(itemsOf(next));
  };
  const writeRaw = (text: string) => {
    setRaw(text);
    try {
      const parsed: unknown = JSON.parse(text);
      problem.current = Array.isArray(parsed) ? undefined : t('not_a_list');
      field.onChange(parsed);
    } catch {
      problem.current = t('not_json');
    }
  };
  const change = (i: number, row: ConditionRow) => writeRows(rows.map((r, j) => (j === i ? row : r)));
  const shown = !!fieldState.error && (fieldState.isTouched || formState.isSubmitted);
  const label = (
    <FieldTitle
      label={(props.label as string | undefined) ?? `resources.${props.resource}.fields.${props.source}`}
      source={props.source}
      resource={props.resource}
    />
  );

  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mb: 2, width: '100%', minWidth: 0 }}>
      <Typography component="legend" variant="subtitle1" sx={{ mb: 1 }}>
        {label}
      </Typography>
      {raw === undefined ? (
        <>
          {rows.length === 0 && (
            <Typography color="text.secondary" sx={{ mb: 1 }}>
              {t('none')}
            </Typography>
          )}
          {rows.map((row, i) => {
            const target = tickets?.fields[row.field];
            const kind = kindOf(row.field);
            return (
              <Box
                key={i}
                role="group"
                aria-label={t('condition', { number: i + 1 })}
                sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'flex-start', mb: 1.5 }}
              >
                {i > 0 && (
                  <Typography sx={{ width: '100%', color: 'text.secondary', fontSize: 14 }}>
                    {t('and')}
                  </Typography>
                )}
                <Autocomplete
                  size="small"
                  sx={{ minWidth: 200, flex: 2 }}
                  options={fields}
                  value={row.field || null}
                  getOptionLabel={labelOf}
                  onChange={(_e, name) => {
                    const k = name ? kindOf(name) : undefined;
                    writeRows(
                      rows.map((r, j) =>
                        j === i ? { field: name ?? '', op: k ? OPS_BY_KIND[k][0]! : '=', value: '' } : r,
                      ),
                    );
                  }}
                  openText={translate('ra.action.open')}
                  closeText={translate('ra.action.close')}
                  clearText={translate('ra.action.clear_input_value')}
                  noOptionsText={translate('list.filter.no_options')}
                  renderInput={(params) => <TextField {...params} label={t('field')} />}
                />
                {kind && (
                  <TextField
                    select
                    size="small"
                    label={t('operator')}
                    sx={{ minWidth: 140, flex: 1 }}
                    value={row.op}
                    onChange={(e) => change(i, withOp(row, e.target.value as ConditionRow['op']))}
                  >
                    {OPS_BY_KIND[kind].map((op) => (
                      <MenuItem key={op} value={op}>
                        {t(`ops.${opKey(op, kind)}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
                {kind && tickets && target && (
                  <ConditionValue
                    key={`${row.field}-${row.op}`}
                    resource={tickets}
                    field={target}
                    kind={kind}
                    row={row}
                    onChange={(value) => change(i, { ...row, value })}
                  />
                )}
                <IconButton
                  aria-label={t('remove', { number: i + 1 })}
                  onClick={() => writeRows(rows.filter((_r, j) => j !== i))}
                >
                  <DeleteOutline />
                </IconButton>
              </Box>
            );
          })}
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button
              startIcon={<Add />}
              onClick={() => writeRows([...rows, { field: '', op: '=', value: '' }])}
            >
              {t('add')}
            </Button>
            <Button onClick={() => setRaw(jsonOf(itemsOf(rows)))}>{t('as_json')}</Button>
          </Box>
        </>
      ) : (
        <>
          <TextField
            multiline
            minRows={3}
            fullWidth
            label={t('json')}
            value={raw}
            onChange={(e) => writeRaw(e.target.value)}
            helperText={rawRows ? undefined : t('json_only')}
          />
          <Button
            sx={{ mt: 1 }}
            disabled={!rawRows}
            onClick={() => {
              setRaw(undefined);
              writeRows(rawRows!);
            }}
          >
            {t('as_rows')}
          </Button>
        </>
      )}
      {shown && (
        <Typography color="error" variant="caption" role="alert" sx={{ display: 'block' }}>
          {translate(fieldState.error?.message ?? '', { _: fieldState.error?.message })}
        </Typography>
      )}
    </Box>
  );
}
