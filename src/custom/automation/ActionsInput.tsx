/**
 * The form input of an action list in the automation's language (common/automation/actions.ts): a
 * macro's or a rule's `actions` (`x-input: "automation-actions"`). One row per action, in order: what it
 * does, then what that needs (a ticket field and its new value, a note, a standard answer, to whom, the
 * minutes to log). The server checks the list again against the tenant's data and names a wrong part
 * (`actions.2.value`), which react-admin shows under that row's input.
 */
import { useMemo } from 'react';
import {
  ArrayInput,
  AutocompleteInput,
  FormDataConsumer,
  NumberInput,
  ReferenceInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  maxLength,
  maxValue,
  minValue,
  number,
  required,
  useTranslate,
} from 'react-admin';
import {
  MAX_LOGGED_DESCRIPTION,
  MAX_LOGGED_MINUTES,
  PERSON_ACTION_TYPES,
  SETTABLE_FIELDS,
  type AutomationActionType,
} from '../../../common/automation/actions.ts';
import { registry } from '../../schema.ts';
import { ReferenceSearchInput } from '../../resources/fields/ReferenceSearchInput.tsx';
import type { InputExtraProps } from '../../resources/fields/kinds.ts';

/**
 * The types an editor offers: those the runner takes; the person-only ones (log_time) only in a list a
 * person applies, whose field says so (`x-person-actions`, a macro's).
 */
const OFFERED: AutomationActionType[] = ['set', 'note', 'reply', 'mail_operators', 'notify', 'log_time'];
const RECIPIENTS = ['assigned', 'group'] as const;
/** Whom a notification goes to here: the ticket's operator (named operators are the API's, as a list of ids). */
const NOTIFIED = ['assigned'] as const;
/** The longest notification text (server/automation/check-actions.ts MAX_NOTIFY_TEXT). */
const MAX_NOTIFY_TEXT = 1000;
/** The resource whose fields an action sets: the action language is about tickets. */
const TICKETS = 'tickets';

/** The inputs of one row beside its type; their sources are the row's own (the iterator's context prefixes them). */
function ActionDetails({ type, field }: { type?: string; field?: string }) {
  const translate = useTranslate();
  const tickets = registry.get(TICKETS);
  const t = (key: string) => translate(`automation_actions.${key}`);
  if (type === 'set') {
    const target = field && tickets?.fields[field];
    return (
      <>
        <SelectInput
          source="field"
          label={t('field')}
          validate={required()}
          choices={SETTABLE_FIELDS.map((id) => ({
            id,
            name: translate(`resources.${TICKETS}.fields.${id}`, { _: id }),
          }))}
        />
        {tickets && target && (
          <ReferenceSearchInput
            key={field}
            schema={tickets}
            field={target}
            source="value"
            resource={TICKETS}
            label={t('value')}
          />
        )}
      </>
    );
  }
  if (type === 'note') return <TextInput source="body" label={t('body')} multiline validate={required()} />;
  if (type === 'log_time')
    return (
      <>
        <NumberInput
          source="minutes"
          label={t('minutes')}
          helperText={t('minutes_help')}
          min={1}
          max={MAX_LOGGED_MINUTES}
          step={1}
          validate={[required(), number(), minValue(1), maxValue(MAX_LOGGED_MINUTES)]}
        />
        <TextInput
          source="description"
          label={t('time_description')}
          multiline
          validate={maxLength(MAX_LOGGED_DESCRIPTION)}
        />
      </>
    );
  if (type === 'notify')
    return (
      <>
        <TextInput
          source="text"
          label={t('text')}
          helperText={t('text_help')}
          multiline
          validate={[required(), maxLength(MAX_NOTIFY_TEXT)]}
        />
        <SelectInput
          source="to"
          label={t('to')}
          validate={required()}
          defaultValue="assigned"
          choices={NOTIFIED.map((id) => ({ id, name: t(`recipients.${id}`) }))}
        />
      </>
    );
  if (type === 'reply' || type === 'mail_operators')
    return (
      <>
        <ReferenceInput source="standard_answer_id" reference="standard-answers">
          <AutocompleteInput label={t('standard_answer')} optionText="title" validate={required()} />
        </ReferenceInput>
        {type === 'mail_operators' && (
          <SelectInput
            source="to"
            label={t('to')}
            validate={required()}
            choices={RECIPIENTS.map((id) => ({ id, name: t(`recipients.${id}`) }))}
          />
        )}
      </>
    );
  return null;
}

export default function ActionsInput(props: InputExtraProps) {
  const translate = useTranslate();
  const { source, label, helperText, validate, resource } = props;
  const byPerson = registry.get(resource)?.fields[source]?.schema['x-person-actions'] === true;
  const types = useMemo(
    () =>
      OFFERED.filter((id) => byPerson || !PERSON_ACTION_TYPES.includes(id)).map((id) => ({
        id,
        name: translate(`automation_actions.types.${id}`),
      })),
    [translate, byPerson],
  );
  return (
    <ArrayInput
      source={source}
      label={label as string | undefined}
      helperText={helperText as string | undefined}
      validate={validate as never}
    >
      <SimpleFormIterator
        inline
        disableReordering={false}
        disableClear
        getItemLabel={(index: number) => translate('automation_actions.action', { number: index + 1 })}
        fullWidth
      >
        <SelectInput
          source="type"
          label={translate('automation_actions.type')}
          choices={types}
          validate={required()}
        />
        <FormDataConsumer>
          {({ scopedFormData }) => (
            <ActionDetails
              type={scopedFormData?.type as string | undefined}
              field={scopedFormData?.field as string | undefined}
            />
          )}
        </FormDataConsumer>
      </SimpleFormIterator>
    </ArrayInput>
  );
}
