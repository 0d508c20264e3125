/**
 * The satisfaction figures (issue 39, item 3): the ratings given in a period, per month (the desk's
 * zone) and per operator or company (the ticket's when it was resolved, kept on the survey), for the
 * readers of the service report (`tenant.reports.index`). Read from the surveys themselves through
 * their index on (tenant, rated_at): a tenant's ratings are a handful per resolved ticket at most, so
 * grouping them at reading time stays cheap, with nothing to keep in step.
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.ts';
import { validating, validInputWith } from '../../http/route-validation.ts';
import { OPERATORS_ONLY } from '../../docs/action-schema.ts';
import { RANGE, rangeProblems, reportReader, reportSchema } from '../../reports/route-parts.ts';
import { REPORTS_PERMISSION } from '../../../common/reports.ts';
import { DEFAULT_TIME_ZONE } from '../../../common/sla/calendar.ts';
import {
  SATISFACTION_BY,
  type SatisfactionAnswer,
  type SatisfactionBy,
} from '../../../common/satisfaction-report.ts';

const BY = SATISFACTION_BY;
type By = SatisfactionBy;

const COUNT = { type: 'integer' };
const ROW = {
  type: 'object',
  required: ['month', 'key', 'name', 'rated', 'good', 'neutral', 'bad', 'satisfied', 'rated_on_5', 'average'],
  properties: {
    month: { type: 'string', format: 'date', description: "The month's first day." },
    key: { type: ['integer', 'null'], description: 'The operator or company; null: none.' },
    name: { type: ['string', 'null'] },
    rated: COUNT,
    good: COUNT,
    neutral: COUNT,
    bad: COUNT,
    satisfied: { type: ['number', 'null'], description: 'The share rated good, in percent (one decimal).' },
    rated_on_5: { type: 'integer', description: 'How many of the ratings were given on the 1 to 5 scale.' },
    average: {
      type: ['number', 'null'],
      description: 'The average of the ratings given on the 1 to 5 scale (one decimal); null: none.',
    },
  },
};

const SCHEMA = reportSchema(
  {
    operationId: 'reportsSatisfaction',
    summary: 'Satisfaction ratings per month and per operator or company',
    description:
      'The satisfaction surveys rated in the period (`rated_at` in the days `from` to `to`, Amsterdam time), ' +
      'one row per month and operator (`by=operator`, the default) or company (`by=company`): how many were ' +
      'rated good, neutral and bad (a 1 to 5 rating: 4-5 good, 3 neutral, 1-2 bad), the share rated good, and ' +
      'of the ratings given on the 1 to 5 scale (the scale of the survey when it was mailed) their number and average. ' +
      `Permission \`${REPORTS_PERMISSION}\`. ${OPERATORS_ONLY}`,
    query: { ...RANGE, by: { type: 'string', enum: [...BY] } },
    answers: {
      200: {
        description: 'The figures.',
        schema: { type: 'object', required: ['rows'], properties: { rows: { type: 'array', items: ROW } } },
      },
    },
  },
  ['from', 'to'],
);

export async function satisfactionFigures(
  db: Db,
  tenantId: number,
  from: string,
  to: string,
  by: By,
): Promise<SatisfactionAnswer> {
  const zone = DEFAULT_TIME_ZONE;
  const keyColumn = by === 'operator' ? sql.ref('s.operator_id') : sql.ref('s.company_id');
  const name =
    by === 'operator'
      ? sql`(select u.full_name from users u where u.id = s.operator_id and u.tenant_id = ${tenantId})`
      : sql`(select c.name from companies c where c.id = s.company_id and c.tenant_id = ${tenantId})`;
  const { rows } = await sql<{
    month: string;
    key: number | null;
    name: string | null;
    rated: string;
    good: string;
    neutral: string;
    bad: string;
    rated_on_5: string;
    sum_on_5: string | null;
  }>`
    select to_char(date_trunc('month', s.rated_at at time zone ${zone}), 'YYYY-MM-DD') as month,
      ${keyColumn} as key, max(${name}) as name, count(*) as rated,
      count(*) filter (where s.sentiment = 'good') as good,
      count(*) filter (where s.sentiment = 'neutral') as neutral,
      count(*) filter (where s.sentiment = 'bad') as bad,
      count(*) filter (where s.scale = 5) as rated_on_5,
      sum(s.rating) filter (where s.scale = 5) as sum_on_5
    from satisfaction_surveys s
    where s.tenant_id = ${tenantId} and s.rated_at is not null
      and s.rated_at >= (${from}::date)::timestamp at time zone ${zone}
      and s.rated_at < ((${to}::date) + 1)::timestamp at time zone ${zone}
    group by 1, 2
    order by 1, 2 nulls last`.execute(db);
  return {
    rows: rows.map((r) => {
      const rated = Number(r.rated);
      const good = Number(r.good);
      const ratedOn5 = Number(r.rated_on_5);
      return {
        month: r.month,
        key: r.key === null ? null : Number(r.key),
        name: r.name,
        rated,
        good,
        neutral: Number(r.neutral),
        bad: Number(r.bad),
        satisfied: rated === 0 ? null : Math.round((good / rated) * 1000) / 10,
        rated_on_5: ratedOn5,
        average: ratedOn5 === 0 ? null : Math.round((Number(r.sum_on_5) / ratedOn5) * 10) / 10,
      };
    }),
  };
}

export function satisfactionReportRoute(app: FastifyInstance, db: Db): void {
  app.get('/api/reports/satisfaction', validating(SCHEMA), async (request) => {
    const auth = await reportReader(request);
    const query = request.query as { from: string; to: string; by?: By };
    validInputWith(request, rangeProblems(query));
    return satisfactionFigures(db, auth.tenantId, query.from, query.to, query.by ?? 'operator');
  });
}
