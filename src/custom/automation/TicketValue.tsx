/**
 * A value of a ticket field as people read it, for the automation's displays (a condition's value, the
 * new value of a `set` action): a related record by its name (the resource's representation), an
 * enumeration by its translated label, yes/no, a date as the lists show it; a custom field's select
 * option by its label. Raw ids and codes were all a reader had before.
 */
import { ReferenceField, useLocaleState, useTranslate } from 'react-admin';
import { formatDate, formatDateTime } from '../../../common/format.ts';
import { fieldKind, referenceOf } from '../../../common/schema/field-kind.ts';
import { CUSTOM_FIELD_PREFIX } from '../../../common/automation/actions.ts';
import { registry } from '../../schema.ts';
import { displayText } from '../../resources/fields/kinds.ts';
import { useCustomFieldDefinitions } from '../forms/CustomFields.tsx';
import { TICKETS } from './conditionFields.ts';

/** A custom field of tickets: its title, and a select's option by its label. */
export function useCustomFieldText() {
  const tickets = registry.get(TICKETS);
  const { definitions } = useCustomFieldDefinitions(tickets ?? ({} as never));
  return {
    title: (name: string) => definitions.find((d) => d.name === name)?.title ?? name,
    value: (name: string, value: unknown) => {
      const options = definitions.find((d) => d.name === name)?.options ?? [];
      return options.find((o) => o.name === value)?.label ?? String(value ?? '');
    },
  };
}

/** A custom field's title (read only where an action names one: the definitions are a request). */
export function CustomFieldTitle({ name }: { name: string }) {
  return <>{useCustomFieldText().title(name)}</>;
}

function CustomValue({ name, value }: { name: string; value: unknown }) {
  return <>{useCustomFieldText().value(name, value)}</>;
}

export function TicketValue({ field: name, value }: { field: string; value: unknown }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (name.startsWith(CUSTOM_FIELD_PREFIX))
    return <CustomValue name={name.slice(CUSTOM_FIELD_PREFIX.length)} value={value} />;
  const tickets = registry.get(TICKETS);
  const field = tickets?.fields[name];
  if (!tickets || !field || value === null || value === undefined || value === '')
    return <>{String(value ?? '')}</>;
  const relation = referenceOf(tickets, field);
  if (relation)
    return (
      <ReferenceField
        record={{ id: 0, [name]: value }}
        source={name}
        reference={relation.resource}
        link={false}
      />
    );
  if (fieldKind(tickets, field) === 'datetime' && typeof value === 'string')
    return (
      <>
        {formatDate(value, locale)} {formatDateTime(value, locale).split(' ').pop()}
      </>
    );
  return <>{displayText(tickets, field, { id: 0, [name]: value }, { locale, translate })}</>;
}
