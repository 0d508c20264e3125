/**
 * The service report's routes (issue 36, item 1), all over a period and for the tickets a filter
 * selects, for operators with the permission `tenant.reports.index` (second line by default; clients
 * and everyone else 403):
 * - GET /api/reports/tickets: per day, week or month and in total (./figures.ts);
 * - GET /api/reports/tickets/breakdown: per company, operator or other key (./breakdown.ts);
 * - GET /api/reports/tickets/breaches: the SLA breaches counted (./breaches.ts);
 * - GET /api/reports/tickets/export: the first or second as CSV or XLSX (./export.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DateTime } from 'luxon';
import type { Db } from '../db/database.ts';
import { forbidden } from '../http/errors.ts';
import { validating, validInputWith } from '../http/route-validation.ts';
import { actionSchema, BINARY, OPERATORS_ONLY } from '../docs/action-schema.ts';
import type { Schema } from '../docs/refs.ts';
import { serverText } from '../../common/server-texts.ts';
import {
  REPORT_FILTERS,
  REPORT_GROUPS,
  REPORT_MEASURES,
  REPORTS_PERMISSION,
  type ReportFilter,
  type ReportGroup,
} from '../../common/reports.ts';
import { reportFigures, type ReportQuery } from './figures.ts';
import { reportBreakdown } from './breakdown.ts';
import { reportBreaches } from './breaches.ts';
import { CSV_TYPE, reportFile, XLSX_TYPE } from './export.ts';
import { EXPORT_LOCALES, pickLocale } from '../exports/messages.ts';

/** About five years and a day: the longest period a report covers (a year by day is 366 rows). */
const MAX_DAYS = 1830;

const DATE: Schema = { type: 'string', format: 'date' };
const IDS: Schema = {
  type: 'array',
  items: { anyOf: [{ type: 'integer', minimum: 1, maximum: 2147483647 }, { const: 'none' }] },
  maxItems: 100,
};
const MINUTES: Schema = { type: ['number', 'null'] };

const FIGURES: Record<string, Schema> = {
  ...Object.fromEntries(REPORT_MEASURES.map((m) => [m, { type: 'integer' }])),
  backlog: { type: ['integer', 'null'] },
  response_median: MINUTES,
  response_p90: MINUTES,
  resolution_median: MINUTES,
  resolution_p90: MINUTES,
};

const ANSWER: Schema = {
  type: 'object',
  required: ['from', 'to', 'group', 'rows', 'total'],
  properties: {
    from: DATE,
    to: DATE,
    group: { type: 'string', enum: [...REPORT_GROUPS] },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        required: ['period', 'from', 'to', ...Object.keys(FIGURES)],
        properties: { period: DATE, from: DATE, to: DATE, ...FIGURES },
      },
    },
    total: { type: 'object', required: Object.keys(FIGURES), properties: FIGURES },
  },
};

const DESCRIPTION =
  'Per period (its first day: the day, the ISO week\u2019s Monday, the month\u2019s first) and in total: tickets ' +
  '`created`, `solved` and open at the end (`backlog`); first answers (`responded`) and their business ' +
  'minutes (`response_minutes` summed, `response_median`, `response_p90`); tickets solved with their ' +
  'minutes open (`resolution_timed`, `resolution_minutes`, median, 90th percentile); and SLA outcomes ' +
  '(`response_met`/`response_breached` on the day the first response target ended, ' +
  '`resolution_met`/`resolution_breached` on the day the ticket was solved). Days in the desk\u2019s zone; ' +
  'business minutes under the calendar of the SLA that applies, every minute without one. Every figure ' +
  'is under the ticket\u2019s current company, operator, group, priority, type, category and applied SLA, ' +
  `as the ticket list filters them. Permission \`${REPORTS_PERMISSION}\`. ${OPERATORS_ONLY}`;

const BREAKDOWN_ANSWER: Schema = {
  type: 'object',
  required: ['from', 'to', 'by', 'rows', 'total'],
  properties: {
    from: DATE,
    to: DATE,
    by: { type: 'string', enum: [...REPORT_FILTERS] },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'name', ...Object.keys(FIGURES)],
        properties: { key: { type: ['integer', 'null'] }, name: { type: ['string', 'null'] }, ...FIGURES },
      },
    },
    total: { type: 'object', required: Object.keys(FIGURES), properties: FIGURES },
  },
};

type RawQuery = { from: string; to: string; group?: ReportGroup; line?: 1 | 2 } & Partial<
  Record<ReportFilter, (number | 'none')[]>
>;

/** By hand: `to` on or after `from`, at most MAX_DAYS later (two fields together). */
function rangeProblems({ from, to }: RawQuery): Record<string, string[]> {
  const [start, end] = [DateTime.fromISO(String(from)), DateTime.fromISO(String(to))];
  // A day the schema refuses is said by the schema alone.
  if (!start.isValid || !end.isValid) return {};
  const days = end.diff(start, 'days').days;
  if (!(days >= 0 && days < MAX_DAYS)) return { to: [serverText('report_range_invalid', { max: MAX_DAYS })] };
  return {};
}

/** The query every report takes: the period, its grouping and the filters. */
const QUERY: Record<string, Schema> = {
  from: { ...DATE, description: 'The first day (YYYY-MM-DD).' },
  to: { ...DATE, description: 'The last day, included.' },
  group: { type: 'string', enum: [...REPORT_GROUPS], description: 'Per day, week or month (default).' },
  line: {
    type: 'integer',
    enum: [1, 2],
    description: 'The tickets of first (1) or second (2) line operators.',
  },
  ...Object.fromEntries(
    REPORT_FILTERS.map((key) => [
      key,
      { ...IDS, description: `Any of these ${key} (\`${key}[]=3\`); \`none\`: those without one.` },
    ]),
  ),
};

const BY: Schema = {
  type: 'string',
  enum: [...REPORT_FILTERS],
  description: 'The key: one row per company, operator, group, priority, type, category or SLA.',
};

/** A report route's schema: its query (the shared one and its own), with what it requires. */
function reportSchema(
  options: Omit<Parameters<typeof actionSchema>[0], 'tag' | 'params' | 'errors'>,
  required: string[],
) {
  const schema = actionSchema({ ...options, tag: 'reports', params: false, errors: [401, 403, 422] });
  (schema.querystring as Schema).required = required;
  return schema;
}

const PERIODS_SCHEMA = reportSchema(
  {
    operationId: 'reportsTickets',
    summary: 'The service report: tickets, response and resolution times, SLA outcomes and backlog',
    description: DESCRIPTION,
    query: QUERY,
    answers: { 200: { description: 'The figures.', schema: ANSWER } },
  },
  ['from', 'to'],
);

const BREAKDOWN_SCHEMA = reportSchema(
  {
    operationId: 'reportsTicketsBreakdown',
    summary: 'The service report per company, operator, group, priority, type, category or SLA',
    description: `The figures of \`GET /api/reports/tickets\` over the whole period, one row per value of \`by\` (by name; \`key\` null: the tickets without one), each \`name\`d by its record's label. Permission \`${REPORTS_PERMISSION}\`. ${OPERATORS_ONLY}`,
    query: { ...QUERY, by: BY },
    answers: { 200: { description: 'The figures per key.', schema: BREAKDOWN_ANSWER } },
  },
  ['from', 'to', 'by'],
);

const BREACHES_ANSWER: Schema = {
  type: 'object',
  required: ['total', 'rows'],
  properties: {
    total: { type: 'integer' },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        required: ['ticket_id', 'reference', 'company', 'operator', 'target', 'due', 'ended'],
        properties: {
          ticket_id: { type: 'integer' },
          reference: { type: ['string', 'null'] },
          company: { type: ['string', 'null'] },
          operator: { type: ['string', 'null'] },
          target: { type: 'string', enum: ['first_response', 'resolution'] },
          due: { type: ['string', 'null'], format: 'date-time' },
          ended: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
};

const BREACHES_SCHEMA = reportSchema(
  {
    operationId: 'reportsTicketsBreaches',
    summary: 'The SLA breaches a service report counts',
    description: `Each ticket whose first response or resolution target was breached, on the day \`GET /api/reports/tickets\` counts it (the first answer, or the solving of a ticket solved unanswered; the solving), under the same filters: the latest first, at most \`limit\`, and how many in all. Permission \`${REPORTS_PERMISSION}\`. ${OPERATORS_ONLY}`,
    query: {
      ...QUERY,
      limit: { type: 'integer', minimum: 1, maximum: 500, description: 'At most this many (default 100).' },
    },
    answers: { 200: { description: 'The breaches.', schema: BREACHES_ANSWER } },
  },
  ['from', 'to'],
);

const EXPORT_SCHEMA = reportSchema(
  {
    operationId: 'reportsTicketsExport',
    summary: 'A service report as a CSV or Excel file',
    description: `The report of \`GET /api/reports/tickets\` (per period) or, with \`by\`, of its breakdown, as a file to compute with: headers in the language asked for, dates as ISO dates (date cells in the XLSX), numbers as plain decimals in the language (number cells), times in minutes. Permission \`${REPORTS_PERMISSION}\`. ${OPERATORS_ONLY}`,
    query: {
      ...QUERY,
      by: BY,
      format: { type: 'string', enum: ['csv', 'xlsx'], description: 'The file: CSV or Excel.' },
      locale: {
        type: 'string',
        enum: [...EXPORT_LOCALES],
        description: "The headers' language (default: Accept-Language).",
      },
    },
    answers: { 200: { description: 'The file.', content: { [CSV_TYPE]: BINARY, [XLSX_TYPE]: BINARY } } },
  },
  ['from', 'to', 'format'],
);

/** The report's query as sent, checked by the schema and by hand (the range). */
function reportQuery(request: FastifyRequest): ReportQuery {
  const raw = request.query as RawQuery;
  validInputWith(request, rangeProblems(raw));
  return {
    from: raw.from,
    to: raw.to,
    group: raw.group ?? 'month',
    line: raw.line,
    filters: Object.fromEntries(REPORT_FILTERS.map((k) => [k, raw[k]])),
  };
}

async function reader(request: FastifyRequest) {
  const auth = await request.getAuth();
  if (auth.kind !== 'operator' || !auth.permissions.has(REPORTS_PERMISSION)) throw forbidden();
  return auth;
}

export async function reportRoutes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  app.get('/api/reports/tickets', validating(PERIODS_SCHEMA), async (request) => {
    const auth = await reader(request);
    return reportFigures(db, auth.tenantId, reportQuery(request));
  });
  app.get('/api/reports/tickets/breakdown', validating(BREAKDOWN_SCHEMA), async (request) => {
    const auth = await reader(request);
    const query = reportQuery(request);
    return reportBreakdown(db, auth.tenantId, query, (request.query as { by: ReportFilter }).by);
  });
  app.get('/api/reports/tickets/breaches', validating(BREACHES_SCHEMA), async (request) => {
    const auth = await reader(request);
    const query = reportQuery(request);
    return reportBreaches(db, auth.tenantId, query, (request.query as { limit?: number }).limit ?? 100);
  });
  app.get('/api/reports/tickets/export', validating(EXPORT_SCHEMA), async (request, reply) => {
    const auth = await reader(request);
    const query = reportQuery(request);
    const { by, format, locale } = request.query as {
      by?: ReportFilter;
      format: 'csv' | 'xlsx';
      locale?: string;
    };
    const language = pickLocale(locale, request.headers['accept-language']);
    const report = by
      ? await reportBreakdown(db, auth.tenantId, query, by)
      : await reportFigures(db, auth.tenantId, query);
    const file = await reportFile(report, format, language);
    return reply
      .header('content-type', file.type)
      .header('content-disposition', `attachment; filename="${file.name}"`)
      .send(file.body);
  });
}
