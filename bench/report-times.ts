/**
 * The benchmark's report times (issue 36): what the service reports read from a ticket, as the SLA
 * clock's recompute would have stored it (migrations 0034, 0036), written in one UPDATE over the
 * generated tickets instead of measuring a million histories.
 *
 * Every minute counts (the tickets have no SLA calendar, or the benchmark SLA's all hours), so business
 * minutes are elapsed minutes. Drawn per ticket, each from a log-normal distribution:
 * - first response: median 20 min, σ 1.7 (74 % within an hour, 3 % after 8 hours, 0.6 % after a day,
 *   at most 14 days); 96 % of the solved tickets and 70 % of the open ones were answered;
 * - resolution: median 1 day, σ 1.8 (16 % within 4 hours, 14 % after a week, 3 % after a month, at most
 *   180 days), and never before the first response's minutes. The generated tickets were solved at a
 *   uniform moment between creation and their last update (months on average): they are now solved at
 *   the earlier of that moment and creation plus these minutes;
 * - reopenings: 4 % of the solved tickets open for at least 2 hours (outside the SLA's window) were
 *   solved once at 30 % of their time, reopened somewhat later and solved again; the solved stretch in
 *   between is not in their resolution minutes.
 * The tickets under the benchmark SLA (./sla-clocks.ts: those of the last 30 days) keep its rules: one
 * in three of the open ones answered, every solved one, each within the 4 hours, and none reopened, so
 * the SLA states it stores agree with these times.
 *
 * Run inside the data set's generation before the summary tables are put up again, so the daily
 * figures are filled from these times at once. A data set made before gets them once (bench_info's
 * report_times), with its summary tables taken down and put up again around the update.
 */
import { sql } from 'kysely';
import type { Db } from '../server/db/database.ts';
import { summaryTablesDown, summaryTablesUp } from '../server/db/summary-tables.ts';
import { benchSlaId, storeSlaStates } from './sla-clocks.ts';

/** A standard normal number per row (Box-Muller). */
const normal = sql`sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())`;

/**
 * The one UPDATE: the generated tickets of the tenant get their report times. `slaId`: the benchmark
 * SLA when the tickets carry it already (a reused data set), else those of the last 30 days are the
 * ones it will be given.
 */
export async function fillReportTimes(db: Db, tenantId: number, slaId: number | null): Promise<number> {
  const underSla =
    slaId === null
      ? sql`t.created_at > now() - interval '30 days'`
      : sql`t.applied_sla_id is not distinct from ${slaId}`;
  const result = await sql`
    with drawn as (
      select t.id, t.created_at as c, t.resolved_at as was_solved, ${underSla} as sla, t.id % 3 = 0 as third,
        greatest(1, least(20160, round(exp(ln(20) + 1.7 * ${normal}))))::int as fr_m,
        greatest(5, least(259200, round(exp(ln(1440) + 1.8 * ${normal}))))::int as res_m,
        random() as u1, random() as u2, random() as u3
      from tickets t
      where t.tenant_id = ${tenantId} and not t.is_template and t.reference like 'B-%'
    ),
    solved as (
      select d.*,
        case when d.sla and d.fr_m > 240 then 1 + floor(d.u1 * 239)::int else d.fr_m end as fr_min,
        case when d.was_solved is not null then
          least(d.was_solved, d.c + greatest(d.res_m, d.fr_m) * interval '1 minute') end as s
      from drawn d
    ),
    answered as (
      select v.*,
        case when (case when v.sla then v.third or v.s is not null
                        when v.s is not null then v.u1 < 0.96 else v.u1 < 0.70 end)
          then least(v.c + v.fr_min * interval '1 minute', coalesce(v.s, now())) end as fr_at,
        -- Reopened once: solved at 30 % of its time, reopened within the rest, solved again at s.
        case when not v.sla and v.s is not null and v.u2 < 0.04 and v.s - v.c >= interval '2 hours'
          then v.c + (v.s - v.c) * (0.3 + 0.7 * (0.1 + 0.5 * v.u3)) end as reopened
      from solved v
    )
    update tickets t set
      resolved_at = a.s,
      first_response_at = a.fr_at,
      first_response_minutes = floor(extract(epoch from a.fr_at - a.c) / 60)::int,
      resolution_minutes = case when a.s is not null then
        floor(extract(epoch from (a.s - a.c) - coalesce(a.reopened - (a.c + (a.s - a.c) * 0.3), interval '0')) / 60)::int end,
      reopened_at = case when a.reopened is null then '{}'::timestamptz[] else array[a.reopened] end
    from answered a
    where t.id = a.id`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Adds bench_info's mark (false on a data set made before this file). */
export async function markColumn(db: Db): Promise<void> {
  await sql`alter table bench_info add column if not exists report_times boolean not null default false`.execute(
    db,
  );
}

/**
 * A reused data set made before the report times: fills them once, with the summary tables taken down
 * and put up again around the update (their figures then start from these times), and stores the SLA
 * states again from the new solving moments. Nothing when bench_info says they are there.
 */
export async function prepareReportTimes(
  db: Db,
  tenantId: number,
  log: (line: string) => void,
): Promise<void> {
  await markColumn(db);
  const info = await sql<{ report_times: boolean }>`select report_times from bench_info`.execute(db);
  if (info.rows[0]?.report_times) return;
  const started = performance.now();
  log('Report times: filling them in on the reused data set …');
  await db.connection().execute(async (conn) => {
    await summaryTablesDown(conn);
    const slaId = await benchSlaId(conn, tenantId);
    const n = await fillReportTimes(conn, tenantId, slaId);
    log(
      `  report times of ${n.toLocaleString('en')} tickets: ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    if (slaId !== null) await storeSlaStates(conn, tenantId, slaId, sql`t.applied_sla_id = ${slaId}`);
    await summaryTablesUp(conn, (name, ms) => log(`  ${name} again: ${(ms / 1000).toFixed(1)} s`));
    await sql`update bench_info set report_times = true`.execute(conn);
  });
  log(`Report times filled in: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
