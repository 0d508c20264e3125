/**
 * A rule's conditions as people read them (`x-input: "automation-conditions"`), the display beside
 * ./ConditionsInput.tsx: one line per condition, "Priority is Critical", a value by its name, all of
 * which must hold; an item the rows cannot say (whereHas, a custom field, search) as its JSON. In a
 * table cell or card, the lines after one another.
 */
import { Fragment } from 'react';
import Box from '@mui/material/Box';
import { useTranslate } from 'react-admin';
import { opKey, rowOf, type ConditionRow } from '../../../common/automation/condition-rows.ts';
import { useConditionFields } from './conditionFields.ts';
import { TicketValue } from './TicketValue.tsx';

function RowText({ row }: { row: ConditionRow }) {
  const { kindOf, labelOf } = useConditionFields();
  const translate = useTranslate();
  const values = Array.isArray(row.value) ? row.value : row.value === undefined ? [] : [row.value];
  const separator = row.op === 'between' ? ` ${translate('automation_conditions.and_value')} ` : ', ';
  return (
    <>
      {labelOf(row.field)} {translate(`automation_conditions.ops.${opKey(row.op, kindOf(row.field))}`)}
      {values.map((v, i) => (
        <Fragment key={i}>
          {i === 0 ? ' ' : separator}
          <TicketValue field={row.field} value={v} />
        </Fragment>
      ))}
    </>
  );
}

export default function ConditionsDisplay({ value, full }: { value: unknown; full?: boolean }) {
  const translate = useTranslate();
  const { kindOf } = useConditionFields();
  const items = Array.isArray(value) ? value : [];
  if (items.length === 0) return full ? <>{translate('automation_conditions.none')}</> : null;
  const lines = items.map((item, i) => {
    const row = rowOf(item, kindOf);
    return row ? <RowText key={i} row={row} /> : <code key={i}>{JSON.stringify(item)}</code>;
  });
  if (!full)
    return (
      <>
        {lines.map((line, i) => (
          <Fragment key={i}>
            {i > 0 && ` ${translate('automation_conditions.and')} `}
            {line}
          </Fragment>
        ))}
      </>
    );
  return (
    // A related record's name reads in the line's own type, not react-admin's smaller body2.
    <Box
      component="ul"
      data-testid="rule-conditions"
      sx={{ m: 0, pl: 3, '& .MuiTypography-root': { font: 'inherit' } }}
    >
      {lines.map((line, i) => (
        <li key={i}>{line}</li>
      ))}
    </Box>
  );
}
