/**
 * What every report route shares (./routes.ts, ./time-routes.ts): who may read reports, the longest
 * period, the schema pieces of a period and its filters, and the files a report is written to.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DateTime } from 'luxon';
import { forbidden } from '../http/errors.ts';
import { validInputWith } from '../http/route-validation.ts';
import { actionSchema, BINARY } from '../docs/action-schema.ts';
import type { Schema } from '../docs/refs.ts';
import { serverText } from '../../common/server-texts.ts';
import { REPORT_GROUPS, REPORTS_PERMISSION, type ReportGroup } from '../../common/reports.ts';
import { EXPORT_LOCALES, pickLocale } from '../exports/messages.ts';
import { CSV_TYPE, reportFile, XLSX_TYPE, type ReportTable } from './file.ts';

/** About five years and a day: the longest period a report covers (a year by day is 366 rows). */
export const MAX_DAYS = 1830;

export const DATE: Schema = { type: 'string', format: 'date' };
export const ID: Schema = { type: 'integer', minimum: 1, maximum: 2147483647 };
/** A filter: any of these ids, or `none` for the rows without one. */
export const IDS: Schema = { type: 'array', items: { anyOf: [ID, { const: 'none' }] }, maxItems: 100 };

export const RANGE: Record<string, Schema> = {
  from: { ...DATE, description: 'The first day (YYYY-MM-DD).' },
  to: { ...DATE, description: 'The last day, included.' },
};

/** A report's answer per period: each period's first day and days in the report, with `figures`. */
export function periodAnswer(figures: Record<string, Schema>, total: Schema): Schema {
  return {
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
          required: ['period', 'from', 'to', ...Object.keys(figures)],
          properties: { period: DATE, from: DATE, to: DATE, ...figures },
        },
      },
      total,
    },
  };
}

/** A report's answer per value of a key (`by`, one of `keys`): each row's key and name, with `figures`. */
export function breakdownAnswer(
  keys: readonly string[],
  figures: Record<string, Schema>,
  total: Schema,
): Schema {
  return {
    type: 'object',
    required: ['from', 'to', 'by', 'rows', 'total'],
    properties: {
      from: DATE,
      to: DATE,
      by: { type: 'string', enum: [...keys] },
      rows: {
        type: 'array',
        items: {
          type: 'object',
          required: ['key', 'name', ...Object.keys(figures)],
          properties: { key: { type: ['integer', 'null'] }, name: { type: ['string', 'null'] }, ...figures },
        },
      },
      total,
    },
  };
}

/** The grouping of a report's periods and the operators' line it is about. */
export const GROUP_AND_LINE: Record<string, Schema> = {
  group: { type: 'string', enum: [...REPORT_GROUPS], description: 'Per day, week or month (default).' },
  line: {
    type: 'integer',
    enum: [1, 2],
    description: 'Of first (1) or second (2) line operators only.',
  },
};

/** A report's query as sent, checked by the schema and by hand (the range); the filters of `keys`. */
export function periodQuery<K extends string>(
  request: FastifyRequest,
  keys: readonly K[],
): {
  from: string;
  to: string;
  group: ReportGroup;
  line?: 1 | 2;
  filters: Partial<Record<K, (number | 'none')[]>>;
} {
  const raw = request.query as { from: string; to: string; group?: ReportGroup; line?: 1 | 2 } & Partial<
    Record<K, (number | 'none')[]>
  >;
  validInputWith(request, rangeProblems(raw));
  return {
    from: raw.from,
    to: raw.to,
    group: raw.group ?? 'month',
    line: raw.line,
    filters: Object.fromEntries(keys.map((k) => [k, raw[k]])) as unknown as Partial<
      Record<K, (number | 'none')[]>
    >,
  };
}

/** By hand: `to` on or after `from`, at most MAX_DAYS later (two fields together). */
export function rangeProblems({ from, to }: { from: string; to: string }): Record<string, string[]> {
  const [start, end] = [DateTime.fromISO(String(from)), DateTime.fromISO(String(to))];
  // A day the schema refuses is said by the schema alone.
  if (!start.isValid || !end.isValid) return {};
  const days = end.diff(start, 'days').days;
  if (!(days >= 0 && days < MAX_DAYS)) return { to: [serverText('report_range_invalid', { max: MAX_DAYS })] };
  return {};
}

/** A report route's schema: its query, with what it requires. */
export function reportSchema(
  options: Omit<Parameters<typeof actionSchema>[0], 'tag' | 'params' | 'errors'>,
  required: string[],
) {
  const schema = actionSchema({ ...options, tag: 'reports', params: false, errors: [401, 403, 422] });
  (schema.querystring as Schema).required = required;
  return schema;
}

/** The query of a report's file: the report's own, and the file's format and language. */
export const FILE_QUERY: Record<string, Schema> = {
  format: { type: 'string', enum: ['csv', 'xlsx'], description: 'The file: CSV or Excel.' },
  locale: {
    type: 'string',
    enum: [...EXPORT_LOCALES],
    description: 'The headers\u2019 language (default: Accept-Language).',
  },
};

export const FILE_ANSWER = {
  200: { description: 'The file.', content: { [CSV_TYPE]: BINARY, [XLSX_TYPE]: BINARY } },
};

/** The caller, when an operator who may read reports; 403 for everyone else. */
export async function reportReader(request: FastifyRequest) {
  const auth = await request.getAuth();
  if (auth.kind !== 'operator' || !auth.permissions.has(REPORTS_PERMISSION)) throw forbidden();
  return auth;
}

/** Sends a report's table as the file the query asks for, in its language. */
export async function sendReportFile(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  table: (locale: ReturnType<typeof pickLocale>) => ReportTable,
) {
  const { format, locale } = request.query as { format: 'csv' | 'xlsx'; locale?: string };
  const language = pickLocale(locale, request.headers['accept-language']);
  const file = await reportFile(table(language), format, language);
  return reply
    .header('content-type', file.type)
    .header('content-disposition', `attachment; filename="${name}.${format}"`)
    .send(file.body);
}
