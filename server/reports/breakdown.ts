/**
 * The service report per company, operator, group, priority, type, category or SLA over a period
 * (issue 36, item 1: "per operator: tickets solved, median first response"): the figures of
 * ./figures.ts with one row per value of the key instead of per period, each named as the ticket list
 * names it (the key's record's label, from the tickets schema). The same five statements, grouped by
 * the key, and one to name the rows.
 */
import { sql } from 'kysely';
import { REPORT_MEASURES, type ReportBreakdown, type ReportKey } from '../../common/reports.ts';
import { referenceOf } from '../../common/schema/field-kind.ts';
import type { Resource } from '../../common/schema/types.ts';
import type { Db } from '../db/database.ts';
import { bySchema } from '../db/schema-tables.ts';
import { registry } from '../schema/registry.ts';
import { tenantToday } from '../sla/stored-clock.ts';
import { measuresOf, percentiles, sums, timesOf, WHOLE } from './figures.ts';
import { dayRows, filtered, type ReportQuery } from './selection.ts';

type Key = number | null;

/** The names of the key's records, from the table and label the tickets schema's relation gives. */
async function namesOf(db: Db, tenantId: number, by: ReportKey, ids: number[]): Promise<Map<number, string>> {
  const reg = registry();
  const tickets = reg.get('tickets')!;
  const relation = referenceOf(tickets, tickets.fields[by]!);
  return recordNames(db, tenantId, relation && reg.get(relation.resource), ids);
}

/** The labels of a resource's records by id (its schema's table and `x-label`), for a report's rows. */
export async function recordNames(
  db: Db,
  tenantId: number,
  target: Resource | undefined,
  ids: number[],
): Promise<Map<number, string>> {
  if (!target || ids.length === 0) return new Map();
  const rows = await bySchema(db)
    .selectFrom(target.table)
    .select([sql<number>`id`.as('id'), sql<string>`${sql.ref(target.label)}::text`.as('name')])
    .where(sql.ref('tenant_id'), '=', tenantId)
    .where(sql.ref('id'), 'in', ids)
    .execute();
  return new Map(rows.map((r) => [Number(r.id), String(r.name)]));
}

export async function reportBreakdown(
  db: Db,
  tenantId: number,
  q: ReportQuery,
  by: ReportKey,
): Promise<ReportBreakdown> {
  const key = sql.ref(by);
  const bucket = sql<Key>`${key}`.as('bucket');
  const source = db.selectFrom(dayRows(db, tenantId, q, by));
  const daily = source
    .select([sql<Key>`bucket`.as('bucket'), ...sums])
    .where('day', '>=', q.from)
    .where('day', '<=', q.to)
    .groupBy(sql`bucket`)
    .execute();
  const after = source
    .select([sql<Key>`bucket`.as('bucket'), sql<number>`coalesce(sum(created - solved), 0)::int`.as('n')])
    .where('day', '>', q.to)
    .groupBy(sql`bucket`)
    .execute();
  const open = filtered(
    db
      .selectFrom('tickets')
      .select([bucket, sql<number>`count(*)::int`.as('n')])
      .where('tenant_id', '=', tenantId)
      .where('is_template', '=', false)
      .where('resolved_at', 'is', null)
      .groupBy(key),
    tenantId,
    q,
  ).execute();
  const [rows, net, now, response, resolution] = await Promise.all([
    daily,
    after,
    open,
    percentiles(db, tenantId, q, 'response', () => key),
    percentiles(db, tenantId, q, 'resolution', () => key),
  ]);
  // The open tickets at the range's end, per key: those open now less what came in net after it.
  const begun = q.from <= tenantToday(Date.now());
  const backlog = new Map<Key, number>();
  for (const r of now) backlog.set(r.bucket, (backlog.get(r.bucket) ?? 0) + Number(r.n));
  for (const r of net) backlog.set(r.bucket, (backlog.get(r.bucket) ?? 0) - Number(r.n));
  const byKey = new Map(rows.map((r) => [r.bucket, r]));
  const keys = new Set<Key>([...byKey.keys(), ...[...backlog].filter(([, n]) => n !== 0).map(([k]) => k)]);
  const ids = [...keys].filter((k): k is number => k !== null).map(Number);
  const names = await namesOf(db, tenantId, by, ids);
  const out = [...keys].map((k) => ({
    key: k === null ? null : Number(k),
    name: k === null ? null : (names.get(Number(k)) ?? null),
    ...measuresOf(byKey.get(k)),
    backlog: begun ? (backlog.get(k) ?? 0) : null,
    ...timesOf(response, resolution, k),
  }));
  // By name, those without one (no operator, say) last.
  out.sort((a, b) =>
    a.key === null ? 1 : b.key === null ? -1 : (a.name ?? '').localeCompare(b.name ?? '') || a.key - b.key,
  );
  const totals = Object.fromEntries(
    REPORT_MEASURES.map((m) => [m, out.reduce((n, row) => n + row[m], 0)]),
  ) as ReturnType<typeof measuresOf>;
  const total = {
    ...totals,
    backlog: begun ? out.reduce((n, row) => n + (row.backlog ?? 0), 0) : null,
    ...timesOf(response, resolution, WHOLE),
  };
  return { from: q.from, to: q.to, by, rows: out, total };
}
