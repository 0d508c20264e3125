/**
 * The ticket fields a trigger on "ticket updated" may watch (`x-input: "ticket-fields"`, a rule's
 * `event_fields`): the tickets' fields an update can change (not read-only) that the back office reads,
 * by the label the ticket list gives them. The server accepts any field of the tickets' schema
 * (server/automation/check-rule.ts); a stored name that is no longer offered is still shown, by its own
 * name, so that saving does not drop it unseen.
 */
import { useMemo } from 'react';
import { useTranslate } from 'react-admin';
import { registry } from '../../schema.ts';
import { readableFields } from '../../resources/fields/rules.ts';
import { TICKETS } from './conditionFields.ts';

export function useTicketFieldNames(stored: unknown) {
  const translate = useTranslate();
  return useMemo(() => {
    const tickets = registry.get(TICKETS);
    const label = (name: string) => translate(`resources.${TICKETS}.fields.${name}`, { _: name });
    const offered = tickets ? readableFields(tickets, 'backoffice').filter((f) => !f.readOnly) : [];
    const names = offered.map((f) => f.name);
    const kept = Array.isArray(stored) ? stored.map(String).filter((name) => !names.includes(name)) : [];
    const choices = [...names, ...kept]
      .map((id) => ({ id, name: label(id) }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return { choices, label };
  }, [stored, translate]);
}
