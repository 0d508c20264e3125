/**
 * The time report (issue 36, item 1: "time logged (billable and not), per company, contract and
 * operator, with prepaid consumption per contract period"):
 * - GET /api/reports/time: per day, week or month and in total (./time.ts);
 * - GET /api/reports/time/breakdown: one row per company, operator, contract or activity (./time.ts);
 * - GET /api/reports/time/export: either as CSV or XLSX (./time-table.ts);
 * - GET /api/reports/contracts: each contract period with the time booked on it in the range
 *   (./contracts.ts).
 * Same rules as the ticket report (./routes.ts): operators with `tenant.reports.index`, everyone else
 * 403; a period of at most MAX_DAYS days.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import { validating, validInputWith } from '../http/route-validation.ts';
import { OPERATORS_ONLY } from '../docs/action-schema.ts';
import type { Schema } from '../docs/refs.ts';
import { REPORTS_PERMISSION } from '../../common/reports.ts';
import { CONSUMPTION_MEASURES, TIME_KEYS, TIME_MEASURES, type TimeKey } from '../../common/time-report.ts';
import { timeBreakdown, timeFigures, type TimeQuery } from './time.ts';
import { contractConsumption } from './contracts.ts';
import { timeTable } from './time-table.ts';
import {
  DATE,
  FILE_ANSWER,
  FILE_QUERY,
  ID,
  IDS,
  RANGE,
  rangeProblems,
  reportReader,
  reportSchema,
  sendReportFile,
  GROUP_AND_LINE,
  periodQuery,
  periodAnswer,
  breakdownAnswer,
} from './route-parts.ts';

const MINUTES: Schema = { type: 'integer' };

const FIGURES: Record<string, Schema> = Object.fromEntries(TIME_MEASURES.map((m) => [m, MINUTES]));
const TOTAL: Schema = { type: 'object', required: [...TIME_MEASURES], properties: FIGURES };

const ANSWER = periodAnswer(FIGURES, TOTAL);

const BREAKDOWN_ANSWER = breakdownAnswer(TIME_KEYS, FIGURES, TOTAL);

const CONSUMPTION: Record<string, Schema> = Object.fromEntries(CONSUMPTION_MEASURES.map((m) => [m, MINUTES]));

const CONTRACTS_ANSWER: Schema = {
  type: 'object',
  required: ['from', 'to', 'rows', 'total'],
  properties: {
    from: DATE,
    to: DATE,
    rows: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'id',
          'period_start',
          'period_end',
          'contract_id',
          'contract_name',
          'prepaid',
          'companies',
          ...CONSUMPTION_MEASURES,
        ],
        properties: {
          id: { type: 'integer' },
          period_start: DATE,
          period_end: { type: ['string', 'null'], format: 'date' },
          contract_id: { type: 'integer' },
          contract_name: { type: 'string' },
          prepaid: { type: 'boolean' },
          companies: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id', 'name'],
              properties: { id: { type: 'integer' }, name: { type: 'string' } },
            },
          },
          ...CONSUMPTION,
        },
      },
    },
    total: { type: 'object', required: [...CONSUMPTION_MEASURES], properties: CONSUMPTION },
  },
};

const KEY_TEXT: Record<TimeKey, string> = {
  company_id: "the ticket's company, or for time without one its contract's only company",
  operator_id: 'the operator who registered the time',
  contract_id: 'the contract of the period the time is booked on',
  activity_id: 'the activity',
};

/** The query of the time report and its breakdown: the period, its grouping and the filters. */
const QUERY: Record<string, Schema> = {
  ...RANGE,
  ...GROUP_AND_LINE,
  ...Object.fromEntries(
    TIME_KEYS.map((key) => [
      key,
      {
        ...IDS,
        description: `Any of these ids of ${KEY_TEXT[key]} (\`${key}[]=3\`); \`none\`: the time without one.`,
      },
    ]),
  ),
};

const BY: Schema = {
  type: 'string',
  enum: [...TIME_KEYS],
  description: 'The key: one row per company, operator, contract or activity.',
};

const FIGURES_TEXT =
  'in minutes: the time spent (`minutes`), rounded up to the desk\u2019s step (`rounded_minutes`, what is ' +
  'invoiced and taken off contracts), the rounded minutes of billable activities and of the others ' +
  '(`billable_minutes`, `non_billable_minutes`; no activity: not billable; billable as the activity is ' +
  'now), those booked on a contract period or prepaid card (`contract_minutes`), and the number of ' +
  '`registrations`. Each registration counts on the day it was executed, in the desk\u2019s zone. The ' +
  'company is the ticket\u2019s now; for time without one, the company of the contract it is booked on ' +
  `when that contract has exactly one. Permission \`${REPORTS_PERMISSION}\`. ${OPERATORS_ONLY}`;

const TIME_SCHEMA = reportSchema(
  {
    operationId: 'reportsTime',
    summary: 'The time report: time logged, billable and not, per period',
    description: `Per period (its first day: the day, the ISO week\u2019s Monday, the month\u2019s first) and in total, ${FIGURES_TEXT}`,
    query: QUERY,
    answers: { 200: { description: 'The figures.', schema: ANSWER } },
  },
  ['from', 'to'],
);

const BREAKDOWN_SCHEMA = reportSchema(
  {
    operationId: 'reportsTimeBreakdown',
    summary: 'The time report per company, operator, contract or activity',
    description: `Over the whole period, one row per value of \`by\` (by name, each \`name\`d by its record\u2019s label; \`key\` null, the time without one, last), ${FIGURES_TEXT}`,
    query: {
      ...QUERY,
      by: BY,
    },
    answers: { 200: { description: 'The figures per key.', schema: BREAKDOWN_ANSWER } },
  },
  ['from', 'to', 'by'],
);

const CONTRACTS_SCHEMA = reportSchema(
  {
    operationId: 'reportsContracts',
    summary: 'Contract and prepaid consumption per contract period',
    description:
      'Each period of a contract (`prepaid`: a prepaid card, a contract with period none) that overlaps ' +
      'the range or had time booked on it in the range, by contract name and period start. Consumption: ' +
      'the time booked on the period by registrations executed in the range (`rounded_minutes`, what ' +
      'the range took off it; `minutes` spent; `registrations`). Beside it the period\u2019s own figures ' +
      'now: `minutes_total`, `registered_time` (everything booked on it) and `minutes_remaining`. ' +
      `Permission \`${REPORTS_PERMISSION}\`. ${OPERATORS_ONLY}`,
    query: {
      ...RANGE,
      company_id: {
        ...IDS,
        description: "Any of the contract's companies (`company_id[]=3`); `none`: contracts of no company.",
      },
      contract_id: {
        type: 'array',
        items: ID,
        maxItems: 100,
        description: 'These contracts (`contract_id[]=3`).',
      },
    },
    answers: { 200: { description: 'The contract periods.', schema: CONTRACTS_ANSWER } },
  },
  ['from', 'to'],
);

const EXPORT_SCHEMA = reportSchema(
  {
    operationId: 'reportsTimeExport',
    summary: 'The time report as a CSV or Excel file',
    description: `The report of \`GET /api/reports/time\` (per period) or, with \`by\`, of its breakdown, as a file to compute with: headers in the language asked for, dates as ISO dates (date cells in the XLSX), time as hours and minutes (h:mm; duration cells). Permission \`${REPORTS_PERMISSION}\`. ${OPERATORS_ONLY}`,
    query: { ...QUERY, by: BY, ...FILE_QUERY },
    answers: FILE_ANSWER,
  },
  ['from', 'to', 'format'],
);

/** The query as sent, checked by the schema and by hand (the range). */
const timeQuery = (request: FastifyRequest): TimeQuery => periodQuery(request, TIME_KEYS);

export async function timeReportRoutes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  app.get('/api/reports/time', validating(TIME_SCHEMA), async (request) => {
    const auth = await reportReader(request);
    return timeFigures(db, auth.tenantId, timeQuery(request));
  });
  app.get('/api/reports/time/breakdown', validating(BREAKDOWN_SCHEMA), async (request) => {
    const auth = await reportReader(request);
    const query = timeQuery(request);
    return timeBreakdown(db, auth.tenantId, query, (request.query as { by: TimeKey }).by);
  });
  app.get('/api/reports/time/export', validating(EXPORT_SCHEMA), async (request, reply) => {
    const auth = await reportReader(request);
    const query = timeQuery(request);
    const { by } = request.query as { by?: TimeKey };
    const report = by
      ? await timeBreakdown(db, auth.tenantId, query, by)
      : await timeFigures(db, auth.tenantId, query);
    const name = `time-${by ? `${by}-` : ''}${query.from}-${query.to}`;
    return sendReportFile(request, reply, name, (locale) => timeTable(report, locale));
  });
  app.get('/api/reports/contracts', validating(CONTRACTS_SCHEMA), async (request) => {
    const auth = await reportReader(request);
    const raw = request.query as {
      from: string;
      to: string;
      company_id?: (number | 'none')[];
      contract_id?: number[];
    };
    validInputWith(request, rangeProblems(raw));
    return contractConsumption(db, auth.tenantId, {
      from: raw.from,
      to: raw.to,
      filters: { company_id: raw.company_id, contract_id: raw.contract_id },
    });
  });
}
