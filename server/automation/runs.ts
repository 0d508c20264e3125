/**
 * The log of the rules' runs (automation_runs, read through the automation-runs resource on a rule's
 * screen). Kept bounded as it is written: a rule keeps its last KEPT_PER_RULE runs, and the time rules'
 * loop drops what is older than KEPT_DAYS, so a busy rule cannot fill the database.
 */
import { sql } from 'kysely';
import type { Db, DbTransaction } from '../db/database.ts';

export const KEPT_PER_RULE = 200;
export const KEPT_DAYS = 30;

export type RunOutcome = 'applied' | 'skipped-loop' | 'failed';

/** Values as the log keeps them: instants as ISO text, everything else as JSON has it. */
const plain = (changes: unknown[]) =>
  JSON.stringify(changes, (_, value: unknown) => (value instanceof Date ? value.toISOString() : value));

export async function logRun(
  trx: DbTransaction,
  run: { tenantId: number; ruleId: number; ticketId: number; event: string },
  depth: number,
  outcome: RunOutcome,
  changes: unknown[],
): Promise<void> {
  await trx
    .insertInto('automation_runs')
    .values({
      tenant_id: run.tenantId,
      rule_id: run.ruleId,
      ticket_id: run.ticketId,
      event: run.event,
      depth,
      outcome,
      changes: plain(changes),
    })
    .execute();
  await sql`delete from automation_runs where tenant_id = ${run.tenantId} and rule_id = ${run.ruleId}
    and id < (select id from automation_runs where tenant_id = ${run.tenantId} and rule_id = ${run.ruleId}
      order by id desc offset ${KEPT_PER_RULE - 1} limit 1)`.execute(trx);
}

/** Drops the runs older than KEPT_DAYS, of every tenant (the loop's housekeeping). */
export async function pruneRuns(db: Db): Promise<void> {
  await sql`delete from automation_runs where created_at < now() - make_interval(days => ${KEPT_DAYS})`.execute(
    db,
  );
}
