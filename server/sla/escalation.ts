/**
 * What an SLA does when a target of a ticket it governs is breached (issue 35, item 5): its optional
 * actions raise the ticket's priority, give it to a named operator, or to a ticket group
 * (slas.breach_*). Once per ticket, target and breach instant, however many instances see the breach:
 * the row in sla_escalations is the claim (unique), and only the transaction that inserts it acts. Every
 * change is in the ticket's history as made by the SLA (ticket_changes.sla_id), the new operator is
 * told as for any assignment, and the streams hear of it.
 */
import { sql } from 'kysely';
import type { ClockResult, TargetName } from '../../common/sla/clock.ts';
import { systemContext } from '../auth/context.ts';
import type { DbTransaction } from '../db/database.ts';
import { operatorChanging, ticketsChanged } from '../resources/notifications/notify.ts';
import { recordTicketChanges } from '../resources/tickets/history.ts';
import { registry } from '../schema/registry.ts';
import type { StoredClock } from './stored-clock.ts';

const DAY = 24 * 60 * 60_000;
const TARGETS: readonly TargetName[] = ['first_response', 'next_response', 'resolution'];

/** The open targets breached within the last day (an older breach is history, not news). */
function freshBreaches(clock: ClockResult, now: number): { target: TargetName; at: number }[] {
  if (!clock.open) return [];
  return TARGETS.flatMap((target) => {
    const t = clock[target];
    return t &&
      t.state === 'breached' &&
      t.endedAt === null &&
      t.breachedAt !== null &&
      now - t.breachedAt <= DAY
      ? [{ target, at: t.breachedAt }]
      : [];
  });
}

/** Runs the breach actions the clocks call for; answers the tickets it changed (to be measured again). */
export async function escalateBreaches(
  trx: DbTransaction,
  tenantId: number,
  clocks: ReadonlyMap<number, { stored: StoredClock; clock: ClockResult }>,
  now: number,
): Promise<number[]> {
  const due = [...clocks].flatMap(([id, { stored, clock }]) => {
    const breaches = freshBreaches(clock, now);
    return stored.applied_sla_id !== null && breaches.length > 0
      ? [{ id, slaId: stored.applied_sla_id, breaches }]
      : [];
  });
  if (due.length === 0) return [];
  const slas = await trx
    .selectFrom('slas')
    .select(['id', 'breach_priority_id', 'breach_operator_id', 'breach_ticket_group_id'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...new Set(due.map((d) => d.slaId))])
    .execute();
  const actions = new Map(slas.map((s) => [s.id, s]));
  const changed: number[] = [];
  for (const { id, slaId, breaches } of due) {
    const sla = actions.get(slaId);
    if (!sla || (sla.breach_priority_id ?? sla.breach_operator_id ?? sla.breach_ticket_group_id) === null)
      continue;
    const claimed = await trx
      .insertInto('sla_escalations')
      .values(
        breaches.map((b) => ({
          tenant_id: tenantId,
          ticket_id: id,
          target: b.target,
          breached_at: new Date(b.at),
        })),
      )
      .onConflict((oc) => oc.columns(['ticket_id', 'target', 'breached_at']).doNothing())
      .returning('id')
      .execute();
    if (claimed.length === 0) continue;
    const ticket = await trx
      .selectFrom('tickets')
      .select(['priority_id', 'operator_id', 'ticket_group_id'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const changes: Record<string, number> = {};
    if (sla.breach_priority_id !== null && sla.breach_priority_id !== ticket.priority_id)
      changes.priority_id = sla.breach_priority_id;
    if (sla.breach_operator_id !== null && sla.breach_operator_id !== ticket.operator_id)
      changes.operator_id = sla.breach_operator_id;
    if (sla.breach_ticket_group_id !== null && sla.breach_ticket_group_id !== ticket.ticket_group_id)
      changes.ticket_group_id = sla.breach_ticket_group_id;
    if (Object.keys(changes).length === 0) continue;
    // The desk acts, not a person: the history names the SLA instead.
    const auth = systemContext(tenantId);
    await recordTicketChanges(trx, registry(), auth, [id], changes, { slaId });
    if ('operator_id' in changes) await operatorChanging(trx, auth, [id], changes.operator_id);
    await trx
      .updateTable('tickets')
      .set({ ...changes, updated_at: sql`now()` })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
    await ticketsChanged(trx, tenantId, [id]);
    changed.push(id);
  }
  return changed;
}
