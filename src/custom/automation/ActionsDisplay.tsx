/**
 * A macro's or a rule's actions as people read them (`x-input: "automation-actions"`), the display
 * beside ./ActionsInput.tsx: on a detail, one numbered line per action with what it does and to what
 * (a field's new value named as the ticket list names it, a standard answer by its title, the minutes
 * logged); in a table cell or card, what the actions do, in order. Raw JSON was all a reader had before.
 */
import { ReferenceField, TextField, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import { CUSTOM_FIELD_PREFIX, type AutomationAction } from '../../../common/automation/actions.ts';
import { TICKETS } from './conditionFields.ts';
import { CustomFieldTitle, TicketValue } from './TicketValue.tsx';

function ActionLine({ action }: { action: AutomationAction }) {
  const translate = useTranslate();
  const t = (key: string, options?: object) => translate(`automation_actions.${key}`, options);
  const what = t(`types.${action.type}`);
  if (action.type === 'set') {
    const custom = action.field.startsWith(CUSTOM_FIELD_PREFIX);
    const name = custom ? (
      <CustomFieldTitle name={action.field.slice(CUSTOM_FIELD_PREFIX.length)} />
    ) : (
      translate(`resources.${TICKETS}.fields.${action.field}`, { _: action.field })
    );
    // The new value by its name (a related record, an enumeration's label, yes/no, an option's label).
    return (
      <>
        {what}: {name} → <TicketValue field={action.field} value={action.value} />
      </>
    );
  }
  if (action.type === 'note')
    return (
      <>
        {what}: “{action.body}”
      </>
    );
  if (action.type === 'notify')
    return (
      <>
        {what}: “{action.text}”
        {typeof action.to === 'string'
          ? ` (${t(`recipients.${action.to}`)})`
          : ` (${t('named_operators', { smart_count: action.to?.operator_ids?.length ?? 0 })})`}
      </>
    );
  if (action.type === 'log_time')
    return (
      <>
        {what}: {t('minutes_count', { smart_count: action.minutes })}
        {action.description ? ` (“${action.description}”)` : ''}
      </>
    );
  if (action.type === 'reply' || action.type === 'mail_operators')
    return (
      <>
        {what}:{' '}
        <ReferenceField
          record={{ id: 0, standard_answer_id: action.standard_answer_id }}
          source="standard_answer_id"
          reference="standard-answers"
          link={false}
        >
          <TextField source="title" />
        </ReferenceField>
        {action.type === 'mail_operators' &&
          typeof action.to === 'string' &&
          ` (${t(`recipients.${action.to}`)})`}
      </>
    );
  return <>{what}</>;
}

export default function ActionsDisplay({ value, full }: { value: unknown; full?: boolean }) {
  const translate = useTranslate();
  const actions = Array.isArray(value) ? (value as AutomationAction[]) : [];
  if (actions.length === 0) return null;
  if (!full) return <>{actions.map((a) => translate(`automation_actions.types.${a.type}`)).join(' · ')}</>;
  return (
    // A related record's name reads in the line's own type, not react-admin's smaller body2.
    <Box component="ol" sx={{ m: 0, pl: 3, '& .MuiTypography-root': { font: 'inherit' } }}>
      {actions.map((action, index) => (
        <li key={index}>
          <ActionLine action={action} />
        </li>
      ))}
    </Box>
  );
}
