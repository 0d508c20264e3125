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
import type { Db } from '../db/database.ts';
import { validating } from '../http/route-validation.ts';
import { OPERATORS_ONLY } from '../docs/action-schema.ts';
import type { Schema } from '../docs/refs.ts';
import {
  REPORT_FILTERS,
  REPORT_KEYS,
  REPORT_MEASURES,
  REPORTS_PERMISSION,
  type ReportKey,
} from '../../common/reports.ts';
import { reportFigures } from './figures.ts';
import type { ReportQuery } from './selection.ts';
import { reportBreakdown } from './breakdown.ts';
import { reportBreaches } from './breaches.ts';
import { ticketTable } from './ticket-table.ts';
import {
  FILE_ANSWER,
  FILE_QUERY,
  IDS,
  RANGE,
  reportReader,
  reportSchema,
  sendReportFile,
  GROUP_AND_LINE,
  periodQuery,
  periodAnswer,
  breakdownAnswer,
} from './route-parts.ts';

const MINUTES: Schema = { type: ['number', 'null'] };

const FIGURES: Record<string, Schema> = {
  ...Object.fromEntries(REPORT_MEASURES.map((m) => [m, { type: 'integer' }])),
  backlog: { type: ['integer', 'null'] },
  response_median: MINUTES,
  response_p90: MINUTES,
  resolution_median: MINUTES,
  resolution_p90: MINUTES,
};

const TOTAL: Schema = { type: 'object', required: Object.keys(FIGURES), properties: FIGURES };

const ANSWER = periodAnswer(FIGURES, TOTAL);

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

const BREAKDOWN_ANSWER = breakdownAnswer(REPORT_KEYS, FIGURES, TOTAL);

/** The query every report takes: the period, its grouping and the filters. */
const QUERY: Record<string, Schema> = {
  ...RANGE,
  ...GROUP_AND_LINE,
  ...Object.fromEntries(
    REPORT_FILTERS.map((key) => [
      key,
      { ...IDS, description: `Any of these ${key} (\`${key}[]=3\`); \`none\`: those without one.` },
    ]),
  ),
};

const BY: Schema = {
  type: 'string',
  enum: [...REPORT_KEYS],
  description: 'The key: one row per company, operator, group, priority, type, category or SLA.',
};

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
      ...FILE_QUERY,
    },
    answers: FILE_ANSWER,
  },
  ['from', 'to', 'format'],
);

/** The query as sent, checked by the schema and by hand (the range). */
const reportQuery = (request: FastifyRequest): ReportQuery => periodQuery(request, REPORT_FILTERS);

export async function reportRoutes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  app.get('/api/reports/tickets', validating(PERIODS_SCHEMA), async (request) => {
    const auth = await reportReader(request);
    return reportFigures(db, auth.tenantId, reportQuery(request));
  });
  app.get('/api/reports/tickets/breakdown', validating(BREAKDOWN_SCHEMA), async (request) => {
    const auth = await reportReader(request);
    const query = reportQuery(request);
    return reportBreakdown(db, auth.tenantId, query, (request.query as { by: ReportKey }).by);
  });
  app.get('/api/reports/tickets/breaches', validating(BREACHES_SCHEMA), async (request) => {
    const auth = await reportReader(request);
    const query = reportQuery(request);
    return reportBreaches(db, auth.tenantId, query, (request.query as { limit?: number }).limit ?? 100);
  });
  app.get('/api/reports/tickets/export', validating(EXPORT_SCHEMA), async (request, reply) => {
    const auth = await reportReader(request);
    const query = reportQuery(request);
    const { by } = request.query as { by?: ReportKey };
    const report = by
      ? await reportBreakdown(db, auth.tenantId, query, by)
      : await reportFigures(db, auth.tenantId, query);
    const name = `report-${by ? `${by}-` : ''}${query.from}-${query.to}`;
    return sendReportFile(request, reply, name, (locale) => ticketTable(report, locale));
  });
}
