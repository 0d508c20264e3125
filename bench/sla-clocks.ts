/**
 * The benchmark's SLA clocks (issue 35): the stored answer of the clock on the generated tickets, as the
 * server would have left it, written in two statements instead of measuring a million histories.
 *
 * The desk took an SLA (4 h first response, 2 days resolution, every minute counting) 30 days ago:
 * tickets made since carry it, older ones none (their columns stay empty, as after migration 0031 on a
 * desk without SLAs). Open tickets run or have breached by their age, one in three answered (first
 * response met); solved ones met or breached by when they were solved. So the 'breaches within' lists
 * and the dashboard's SLA figures read a few hundred tickets of a million, as in a real desk, and the
 * resolution-due sort walks an index whose most entries are empty.
 * The times they are measured against (first answers, solving moments) are ./report-times.ts's.
 *
 * Every ticket's recheck moment is cleared: the server's background pass would otherwise measure the
 * whole table again during the run (0031 marks every existing ticket due for one). Runs on a reused
 * database too (a data set made before 0032), once: it does nothing when the SLA is there.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../server/db/database.ts';

const SLA_NAME = 'Benchmark SLA';

/** The benchmark SLA's id, or null when the data set has none yet. */
export async function benchSlaId(db: Db, tenantId: number): Promise<number | null> {
  const { rows } = await sql<{ id: number }>`
    select id from slas where tenant_id = ${tenantId} and name = ${SLA_NAME}`.execute(db);
  return rows[0] ? Number(rows[0].id) : null;
}

export async function prepareSlaClocks(db: Db, tenantId: number, log: (line: string) => void): Promise<void> {
  if ((await benchSlaId(db, tenantId)) !== null) return;
  const started = performance.now();
  await db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: number }>`
      insert into slas (tenant_id, name, response_time, resolution_time)
      values (${tenantId}, ${SLA_NAME}, 240, 2880) returning id`.execute(trx);
    const slaId = rows[0]!.id;
    await sql`update tickets set sla_recheck_at = null where sla_recheck_at is not null`.execute(trx);
    await storeSlaStates(trx, tenantId, slaId, sql`t.created_at > now() - interval '30 days'`);
  });
  log(`SLA clocks stored: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * The SLA's clock on the tickets `which` selects, from their creation and solving (./report-times.ts
 * keeps their first answers within the 4 hours): also run again when the report times move the
 * solving moments of a reused data set.
 */
export async function storeSlaStates(
  db: Db,
  tenantId: number,
  slaId: number,
  which: RawBuilder<unknown>,
): Promise<void> {
  await sql`
      with measured as (
        select t.id,
          case when t.resolved_at is not null or t.id % 3 = 0 then 'met'
               when t.created_at + interval '4 hours' < now() then 'breached' else 'running' end as fr,
          case when t.resolved_at is not null then
                 case when t.resolved_at <= t.created_at + interval '2 days' then 'met' else 'breached' end
               when t.created_at + interval '2 days' < now() then 'breached' else 'running' end as res,
          t.created_at + interval '4 hours' as fr_due, t.created_at + interval '2 days' as res_due
        from tickets t
        where t.tenant_id = ${tenantId} and not t.is_template and ${which}
      )
      update tickets t set applied_sla_id = ${slaId}, applied_sla_source = 'tenant',
        first_response_state = m.fr, first_response_due = case when m.fr = 'met' then null else m.fr_due end,
        resolution_state = m.res, resolution_due = case when m.res = 'met' then null else m.res_due end,
        sla_state = case when 'breached' in (m.fr, m.res) then 'breached'
                         when 'running' in (m.fr, m.res) then 'running' else 'met' end,
        sla_due = least(case when m.fr = 'running' then m.fr_due end,
                        case when m.res = 'running' then m.res_due end)
      from measured m where t.id = m.id`.execute(db);
}
