/**
 * The SLA breaches a service report counts (issue 36, item 1: "the breaches listed"): each ticket whose
 * first response or resolution target was breached, on the day the report counts it (./figures.ts:
 * the first response's outcome on the day of the first answer, or of the solving of a ticket solved
 * unanswered; the resolution's on the day it was solved), under the report's filters. The latest first,
 * at most `limit`, with how many there are in all: the counts `response_breached` and
 * `resolution_breached` of the same report. Four statements: the page and the count side by side, then
 * the names of the page's companies and operators.
 */
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import { DEFAULT_TIME_ZONE } from '../../common/sla/calendar.ts';
import type { ReportBreach, ReportBreaches } from '../../common/reports.ts';
import type { Db } from '../db/database.ts';
import { filtered, type ReportQuery } from './selection.ts';

/** The start of a day in the desk's zone, as a moment. */
const instant = (day: string) => DateTime.fromISO(day, { zone: DEFAULT_TIME_ZONE }).toJSDate();

/** The breached tickets of each target in the range, as one row per ticket and target. */
function breached(db: Db, tenantId: number, q: ReportQuery) {
  const start = instant(q.from);
  const end = instant(DateTime.fromISO(q.to).plus({ days: 1 }).toISODate()!);
  const base = () =>
    db.selectFrom('tickets').where('tenant_id', '=', tenantId).where('is_template', '=', false);
  // Two conditions instead of a coalesce, so each can use the index of its moment.
  const response = filtered(
    base()
      .select([
        'id',
        'reference',
        'company_id',
        'operator_id',
        sql<ReportBreach['target']>`'first_response'`.as('target'),
        sql<Date | null>`first_response_due`.as('due'),
        sql<Date>`coalesce(first_response_at, resolved_at)`.as('ended'),
      ])
      .where('first_response_state', '=', 'breached')
      .where((eb) =>
        eb.or([
          eb.and([eb('first_response_at', '>=', start), eb('first_response_at', '<', end)]),
          eb.and([
            eb('first_response_at', 'is', null),
            eb('resolved_at', '>=', start),
            eb('resolved_at', '<', end),
          ]),
        ]),
      ),
    tenantId,
    q,
  );
  const resolution = filtered(
    base()
      .select([
        'id',
        'reference',
        'company_id',
        'operator_id',
        sql<ReportBreach['target']>`'resolution'`.as('target'),
        sql<Date | null>`resolution_due`.as('due'),
        sql<Date>`resolved_at`.as('ended'),
      ])
      .where('resolution_state', '=', 'breached')
      .where('resolved_at', '>=', start)
      .where('resolved_at', '<', end),
    tenantId,
    q,
  );
  return response.unionAll(resolution);
}

export async function reportBreaches(
  db: Db,
  tenantId: number,
  q: ReportQuery,
  limit: number,
): Promise<ReportBreaches> {
  const all = breached(db, tenantId, q);
  const [rows, count] = await Promise.all([
    db
      .selectFrom(all.as('b'))
      .selectAll()
      .orderBy('ended', 'desc')
      .orderBy('id', 'desc')
      .orderBy('target')
      .limit(limit)
      .execute(),
    db
      .selectFrom(all.as('b'))
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const companyIds = [...new Set(rows.flatMap((r) => (r.company_id === null ? [] : [r.company_id])))];
  const operatorIds = [...new Set(rows.flatMap((r) => (r.operator_id === null ? [] : [r.operator_id])))];
  const [companies, operators] = await Promise.all([
    companyIds.length
      ? db
          .selectFrom('companies')
          .select(['id', 'name'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', companyIds)
          .execute()
      : [],
    operatorIds.length
      ? db
          .selectFrom('users')
          .select(['id', 'full_name'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', operatorIds)
          .execute()
      : [],
  ]);
  const company = new Map(companies.map((c) => [c.id, c.name]));
  const operator = new Map(operators.map((o) => [o.id, o.full_name]));
  const iso = (d: Date | null) => (d === null ? null : new Date(d).toISOString());
  return {
    total: Number(count.n),
    rows: rows.map((r) => ({
      ticket_id: r.id,
      reference: r.reference,
      company: r.company_id === null ? null : (company.get(r.company_id) ?? null),
      operator: r.operator_id === null ? null : (operator.get(r.operator_id) ?? null),
      target: r.target,
      due: iso(r.due),
      ended: iso(r.ended)!,
    })),
  };
}
