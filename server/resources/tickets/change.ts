/**
 * Setting fields on tickets as an edit does, for the paths that change tickets without the generic
 * update (the bulk bar, an automation rule or macro): the history (by the caller, or by the rule that
 * acts), the new operator told, the live streams told, the status-changed message of the thread,
 * resolved_at settled, and the SLA clocks measured again. One place, so the paths cannot drift apart.
 */
import { sql } from 'kysely';
import type { AuthContext } from '../../auth/context.ts';
import type { DbTransaction } from '../../db/database.ts';
import { bySchema } from '../../db/schema-tables.ts';
import type { Registry } from '../../schema/registry.ts';
import type { Resource } from '../../../common/schema/types.ts';
import { keepTicketClocks } from '../../sla/keep.ts';
import { changeSeenBy, operatorChanging, ticketsChanged } from '../notifications/notify.ts';
import { recordTicketChanges } from './history.ts';
import { guardClosing } from '../checklist-items/closing.ts';
import { logStatusChange } from './status-log.ts';
import { resolvedAtOnUpdate } from './resolved.ts';

/** Writes the status-changed message of each ticket whose status becomes `status` (SPEC 4). */
export async function logStatuses(
  trx: DbTransaction,
  auth: AuthContext,
  rows: { id: number; status_id: unknown }[],
  status: number,
): Promise<void> {
  for (const row of rows) {
    const previous = row.status_id === null ? null : Number(row.status_id);
    await logStatusChange(trx, auth, row.id, status, previous);
  }
}

/** One changed column of one ticket, as the change made it. */
export interface ColumnChange {
  ticketId: number;
  column: string;
  from: unknown;
  to: unknown;
}

/**
 * Sets `changes` (column -> checked value, references checked by the caller) on the tickets `ids` of
 * the caller's tenant; answers what changed, per ticket and column (a ticket that has the values
 * already is left alone).
 */
export async function changeTickets(
  trx: DbTransaction,
  registry: Registry,
  auth: AuthContext,
  resource: Resource,
  ids: number[],
  changes: Record<string, unknown>,
  by: { ruleId?: number; override?: boolean } = {},
): Promise<ColumnChange[]> {
  if (ids.length === 0 || Object.keys(changes).length === 0) return [];
  const current = await bySchema(trx)
    .selectFrom(resource.table)
    .select(['id', 'status_id', ...Object.keys(changes)])
    .where('tenant_id', '=', auth.tenantId)
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  const same = (a: unknown, b: unknown) =>
    (a === null ? null : String(a)) === (b === null ? null : String(b));
  const changing = current.filter((row) => Object.entries(changes).some(([c, v]) => !same(row[c], v)));
  const changed = changing.map((r) => Number(r.id));
  if (changed.length === 0) return [];
  // A ticket does not close past its open required checklist items, whoever moves it (issue 37, item 4).
  if ('status_id' in changes)
    await guardClosing(
      trx,
      registry,
      auth,
      changing.filter((r) => !same(r.status_id, changes.status_id)).map((r) => Number(r.id)),
      Number(changes.status_id),
      by.override,
    );
  await recordTicketChanges(trx, registry, auth, changed, changes, { ruleId: by.ruleId });
  if ('operator_id' in changes) await operatorChanging(trx, auth, changed, changes.operator_id);
  await ticketsChanged(trx, auth.tenantId, changed, changeSeenBy(resource, Object.keys(changes)));
  if ('status_id' in changes)
    await logStatuses(
      trx,
      auth,
      changing.map((r) => ({ id: Number(r.id), status_id: r.status_id })),
      Number(changes.status_id),
    );
  await bySchema(trx)
    .updateTable(resource.table)
    .set({
      ...changes,
      // A new status settles resolved_at as every other status change does (resolved.ts).
      ...('status_id' in changes
        ? { resolved_at: resolvedAtOnUpdate(auth.tenantId, Number(changes.status_id)) }
        : {}),
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', auth.tenantId)
    .where('id', 'in', changed)
    .execute();
  await keepTicketClocks(trx, auth.tenantId, changed);
  return changing.flatMap((row) =>
    Object.entries(changes)
      .filter(([column, value]) => !same(row[column], value))
      .map(([column, to]) => ({ ticketId: Number(row.id), column, from: row[column] ?? null, to })),
  );
}
