/**
 * The SLA clock's background pass (issue 35, item 3): recomputes the stored clocks whose moment has
 * come (`sla_recheck_at`: a threshold or a due instant reached by time alone, or a change of an SLA, a
 * calendar or a company marked them), and tells and acts on what they reached (./measure.ts).
 *
 * Any number of instances run it. Each batch is claimed (`for update skip locked`), so two instances
 * never measure the same ticket at once, and the warnings' unique keys make each one once even so.
 * Batches commit one by one: a pass cut short (a restart, the database gone) leaves the rest marked
 * for the next one. A write path that measures a ticket in its own transaction waits for the claim.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db, DbTransaction } from '../db/database.ts';
import { measureTickets } from './measure.ts';

/** Tickets per claimed batch: short transactions, so a write path never waits long on one. */
export const SLA_RECHECK_BATCH = 50;
/** Batches per look at most; the next look goes on (other timed checks share the loop). */
const MAX_BATCHES = 40;

/** Recomputes one batch of tickets due for it at `now`; answers how many were measured. */
export async function recheckSlaBatch(db: Db, now = Date.now(), batch = SLA_RECHECK_BATCH): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('tickets')
      .select(['id', 'tenant_id'])
      .where('sla_recheck_at', '<=', new Date(now))
      .where('is_template', '=', false)
      .orderBy('sla_recheck_at')
      .limit(batch)
      .forUpdate()
      .skipLocked()
      .execute();
    const byTenant = new Map<number, number[]>();
    for (const t of due) byTenant.set(t.tenant_id, [...(byTenant.get(t.tenant_id) ?? []), t.id]);
    for (const [tenantId, ids] of byTenant) await measureTickets(trx, tenantId, ids, now);
    return due.length;
  });
}

/**
 * Recomputes every ticket due for it, batch after batch, up to MAX_BATCHES; answers how many. `stopping`
 * is asked before each batch: a shutdown waits for the batch in hand, not for a whole look (many tickets
 * marked at once, after an upgrade or a changed SLA, made a SIGTERM wait some 10 seconds).
 */
export async function recheckSlaClocks(db: Db, now = Date.now(), stopping = () => false): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES && !stopping(); i++) {
    const measured = await recheckSlaBatch(db, now);
    total += measured;
    if (measured < SLA_RECHECK_BATCH) break;
  }
  return total;
}

/**
 * Marks for the background pass the open tickets whose clock `governs` selects (an SLA's, a calendar's,
 * a company's): one statement, in the caller's transaction, whatever their number.
 */
export function markForRecheck(trx: Db | DbTransaction, tenantId: number, governs: Expression<SqlBool>) {
  return trx
    .updateTable('tickets')
    .set({ sla_recheck_at: sql`now()` })
    .where('tenant_id', '=', tenantId)
    .where('resolved_at', 'is', null)
    .where('is_template', '=', false)
    .where(governs)
    .execute();
}
