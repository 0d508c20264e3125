/**
 * A `set` action on a custom field (`custom_fields.<name>`) of tickets: written by the custom values'
 * writer (its type and options checked as a form's), and recorded in each changed ticket's history as
 * the other fields are (field `custom_field`), by the rule or the user that acted. The ticket's own
 * fields' history (tickets/history.ts) knows only its columns; without this, a rule's change of a custom
 * field would appear nowhere (issue 37: every automated change is in the history, by the rule's name).
 *
 * The history row's labels carry the field's title ("Locatie: Utrecht"): its `field` is one enum value
 * for every custom field, and the reader must still see which one changed.
 */
import type { AuthContext } from '../auth/context.ts';
import type { DbTransaction } from '../db/database.ts';
import type { Registry } from '../schema/registry.ts';
import type { Resource } from '../../common/schema/types.ts';
import { writeCustomValues } from '../resources/custom-values.ts';
import { writeHistory, type ChangeEntry } from '../resources/tickets/history.ts';

/** The history entry's `field` for a change of any custom field. */
export const CUSTOM_FIELD_CHANGE = 'custom_field';

/** The stored values of one custom field on the tickets, by ticket id (absent: no value). */
async function valuesOf(trx: DbTransaction, tenantId: number, fieldId: number, morph: string, ids: number[]) {
  const rows = await trx
    .selectFrom('custom_values')
    .select(['morphable_id', 'value'])
    .where('tenant_id', '=', tenantId)
    .where('custom_field_id', '=', fieldId)
    .where('morphable_type', '=', morph)
    .where('morphable_id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [Number(r.morphable_id), r.value]));
}

/** Sets the custom field `name` to `value` on the tickets, with a history entry where it changed. */
export async function setCustomField(
  trx: DbTransaction,
  registry: Registry,
  auth: AuthContext,
  tickets: Resource,
  ticketIds: number[],
  name: string,
  value: unknown,
  by: { ruleId?: number },
): Promise<void> {
  const morph = tickets.morphType ?? 'ticket';
  const field = await trx
    .selectFrom('custom_fields')
    .select(['id', 'title'])
    .where('tenant_id', '=', auth.tenantId)
    .where('morphable_type', '=', morph)
    .where('name', '=', name)
    .executeTakeFirst();
  const before = field ? await valuesOf(trx, auth.tenantId, field.id, morph, ticketIds) : new Map();
  // An unknown name (the field deleted since the save) is the writer's 422, as a form's would be.
  for (const id of ticketIds) await writeCustomValues(trx, auth, tickets, id, { [name]: value }, false);
  if (!field || ticketIds.length === 0) return;
  const after = await valuesOf(trx, auth.tenantId, field.id, morph, ticketIds);
  const label = (v: string | null) => (v === null ? null : `${field.title}: ${v}`);
  const entries: ChangeEntry[] = [];
  for (const ticketId of ticketIds) {
    const from = before.get(ticketId) ?? null;
    const to = after.get(ticketId) ?? null;
    if (from !== to)
      entries.push({
        ticketId,
        field: CUSTOM_FIELD_CHANGE,
        from,
        to,
        fromLabel: label(from),
        toLabel: label(to),
        ...by,
      });
  }
  await writeHistory(trx, registry, auth, entries);
}
