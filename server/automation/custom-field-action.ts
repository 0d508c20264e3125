/**
 * A `set` action on a custom field (`custom_fields.<name>`) of tickets: written by the custom values'
 * writer (its type and options checked as a form's), and recorded in each changed ticket's history as
 * the other fields are (field `custom_field`, tickets/history.ts customFieldEntries), by the rule or the
 * user that acted (issue 37: every automated change is in the history, by the rule's name). A form's
 * change of a custom value is recorded by the tickets' customValuesChanged hook the same way.
 */
import type { AuthContext } from '../auth/context.ts';
import type { DbTransaction } from '../db/database.ts';
import type { Registry } from '../schema/registry.ts';
import type { Resource } from '../../common/schema/types.ts';
import { writeCustomValues } from '../resources/custom-values.ts';
import { customFieldEntries, writeHistory, type ChangeEntry } from '../resources/tickets/history.ts';

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
  const entries: ChangeEntry[] = [];
  // An unknown name (the field deleted since the save) is the writer's 422, as a form's would be.
  for (const id of ticketIds) {
    const changed = await writeCustomValues(trx, auth, tickets, id, { [name]: value }, false);
    entries.push(...customFieldEntries(id, changed, by));
  }
  await writeHistory(trx, registry, auth, entries);
}
