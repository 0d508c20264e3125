/**
 * The check of the reports' daily figures at the benchmark's size (issue 36): ticket_report_days, as
 * the triggers and the summary migrations left it (storedReportDays), against the same figures computed
 * again from the tickets (recomputedReportDays, server/reports/recompute.ts). That one reads every ticket
 * into memory and builds every day's row in a Map: at a million tickets some 2.5 million rows. So here
 * the same rules, said again in SQL as recompute.ts says them (one event per ticket and day it counts
 * on: created; the first answer's day, or unanswered the solving's; the solving; each reopening),
 * summed per day and keys inside the database and compared there with the stored rows both ways
 * (EXCEPT). Independent of the migrations' SQL: their triggers and GROUP BYs are not used. Rows whose
 * measures are all zero are left out on both sides, as recompute.ts's normalise does.
 *
 * Up to IN_MEMORY_LIMIT tickets, recompute.ts's own comparison runs as well.
 */
import { sql } from 'kysely';
import { DEFAULT_TIME_ZONE } from '../common/sla/calendar.ts';
import { REPORT_KEYS, REPORT_MEASURES } from '../common/reports.ts';
import type { Db } from '../server/db/database.ts';
import { dayKey, recomputedReportDays, storedReportDays } from '../server/reports/recompute.ts';

export const IN_MEMORY_LIMIT = 200_000;

export interface CheckResult {
  /** Non-zero rows of the stored figures and of the recomputation. */
  storedRows: number;
  recomputedRows: number;
  /** Rows only in one side (a row differing in a measure counts on both). */
  onlyStored: number;
  onlyRecomputed: number;
  /** The first differing rows of each side (by day), as text. */
  first: string[];
  /** recompute.ts's own comparison in memory: null when the data set is too large for it. */
  inMemory: { exact: boolean; stored: number; recomputed: number; first: string[] } | null;
  seconds: number;
}

const KEYS = REPORT_KEYS;
const MEASURES = REPORT_MEASURES;

/** A day of a moment in the desk's zone. */
const dayOf = (moment: string) => `(${moment} at time zone '${DEFAULT_TIME_ZONE}')::date`;

export async function checkReportDays(db: Db, tenantId: number, tickets: number): Promise<CheckResult> {
  const started = performance.now();
  const keys = KEYS.join(', ');
  const measures = MEASURES.join(', ');
  const nonZero = MEASURES.map((m) => `${m} <> 0`).join(' or ');
  // One row per event: the day it falls on and what it adds, every measure named (0 where it adds none).
  const event = (day: string, adds: Partial<Record<(typeof MEASURES)[number], string>>) =>
    `select ${dayOf(day)} as day, ${keys}, ${MEASURES.map((m) => `${adds[m] ?? '0'} as ${m}`).join(', ')}
     from mine where ${day} is not null`;
  const events = [
    event('created_at', { created: '1' }),
    event('coalesce(first_response_at, resolved_at)', {
      responded: 'case when first_response_at is null then 0 else 1 end',
      response_minutes: 'coalesce(first_response_minutes, 0)',
      response_met: "case when first_response_state = 'met' then 1 else 0 end",
      response_breached: "case when first_response_state = 'breached' then 1 else 0 end",
    }),
    event('resolved_at', {
      solved: '1',
      resolution_timed: 'case when resolution_minutes is null then 0 else 1 end',
      resolution_minutes: 'coalesce(resolution_minutes, 0)',
      resolution_met: "case when resolution_state = 'met' then 1 else 0 end",
      resolution_breached: "case when resolution_state = 'breached' then 1 else 0 end",
    }),
    `select ${dayOf('moment')} as day, ${keys}, ${MEASURES.map((m) => `${m === 'reopened' ? '1' : '0'} as ${m}`).join(', ')}
     from mine cross join lateral unnest(reopened_at) as moment`,
  ].join('\nunion all\n');
  const sums = MEASURES.map((m) => `sum(${m})::bigint as ${m}`).join(', ');
  const result = await db.connection().execute(async (conn) => {
    await sql`drop table if exists bench_recomputed_days`.execute(conn);
    await sql
      .raw(
        `create temporary table bench_recomputed_days as
        with mine as (select * from tickets where tenant_id = ${Number(tenantId)} and not is_template)
        select day, ${keys}, ${sums} from (${events}) e
        group by day, ${keys}`,
      )
      .execute(conn);
    await sql.raw(`delete from bench_recomputed_days where not (${nonZero})`).execute(conn);
    await sql.raw(`analyze bench_recomputed_days`).execute(conn);
    const stored = `select day, ${keys}, ${MEASURES.map((m) => `${m}::bigint as ${m}`).join(', ')}
      from ticket_report_days where tenant_id = ${Number(tenantId)} and (${nonZero})`;
    const recomputed = `select day, ${keys}, ${measures} from bench_recomputed_days`;
    const count = async (text: string) =>
      Number(
        (await sql.raw<{ n: number }>(`select count(*)::bigint as n from (${text}) x`).execute(conn)).rows[0]!
          .n,
      );
    const onlyStored = `${stored} except ${recomputed}`;
    const onlyRecomputed = `${recomputed} except ${stored}`;
    const firstOf = async (side: string, text: string) =>
      (
        await sql
          .raw<Record<string, unknown>>(
            `select to_char(day, 'YYYY-MM-DD') as day_text, * from (${text}) x order by day, ${keys} limit 5`,
          )
          .execute(conn)
      ).rows.map((r) => `${side}: ${describeRow(r)}`);
    const out = {
      storedRows: await count(stored),
      recomputedRows: await count(recomputed),
      onlyStored: await count(onlyStored),
      onlyRecomputed: await count(onlyRecomputed),
      first: [] as string[],
    };
    if (out.onlyStored + out.onlyRecomputed > 0)
      out.first = [
        ...(await firstOf('stored only', onlyStored)),
        ...(await firstOf('recomputed only', onlyRecomputed)),
      ];
    await sql`drop table bench_recomputed_days`.execute(conn);
    return out;
  });
  let inMemory: CheckResult['inMemory'] = null;
  if (tickets <= IN_MEMORY_LIMIT) {
    const [stored, recomputed] = [
      await storedReportDays(db, tenantId),
      await recomputedReportDays(db, tenantId),
    ];
    const a = new Map(stored.map((r) => [dayKey(r), JSON.stringify(r)]));
    const b = new Map(recomputed.map((r) => [dayKey(r), JSON.stringify(r)]));
    const first: string[] = [];
    for (const [k, v] of a)
      if (b.get(k) !== v && first.length < 5) first.push(`stored ${v} / recomputed ${b.get(k) ?? '-'}`);
    for (const [k, v] of b) if (!a.has(k) && first.length < 10) first.push(`recomputed only ${v}`);
    inMemory = {
      exact: first.length === 0 && stored.length === recomputed.length,
      stored: stored.length,
      recomputed: recomputed.length,
      first,
    };
  }
  return { ...result, inMemory, seconds: (performance.now() - started) / 1000 };
}

/** A day's row in short: its day, the keys it has, the measures that are not zero. */
function describeRow(r: Record<string, unknown>): string {
  const day = String(r.day_text);
  const keys = KEYS.filter((k) => r[k] !== null).map((k) => `${k}=${String(r[k])}`);
  const measures = MEASURES.filter((m) => Number(r[m]) !== 0).map((m) => `${m}=${String(r[m])}`);
  return [day, ...keys, ...measures].join(' ');
}

/**
 * The whole desk's figures (ticket_report_desk_days, migration 0040) against the keyed ones summed per
 * day, which checkReportDays holds against the tickets: every row of a day summed, settled or not.
 */
export async function checkDeskDays(
  db: Db,
  tenantId: number,
): Promise<{ days: number; differing: number; seconds: number }> {
  const started = performance.now();
  const perDay = (table: string) =>
    `select day, ${MEASURES.map((m) => `sum(${m})::bigint as ${m}`).join(', ')} from ${table}
     where tenant_id = ${Number(tenantId)} group by day
     having ${MEASURES.map((m) => `sum(${m}) <> 0`).join(' or ')}`;
  const [keyed, desk] = [perDay('ticket_report_days'), perDay('ticket_report_desk_days')];
  const row = (
    await sql
      .raw<{ days: number; differing: number }>(
        `select (select count(*) from (${desk}) d)::int as days,
          ((select count(*) from (${keyed} except ${desk}) a) + (select count(*) from (${desk} except ${keyed}) b))::int as differing`,
      )
      .execute(db)
  ).rows[0]!;
  return {
    days: Number(row.days),
    differing: Number(row.differing),
    seconds: (performance.now() - started) / 1000,
  };
}
