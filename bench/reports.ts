/**
 * Section `reports` (issue 36): the service reports through the product's app over HTTP, as an operator
 * with `tenant.reports.index` (the demo admin) reads them: a year by month, five years by month, a year
 * by week, one company's year (the largest, and one of median size), a year's breakdown per operator and
 * per company, five years per operator, and a year's Excel file. Median and p99 of each, against the issue's targets (a full year
 * by month ≤ 300 ms, a single company ≤ 100 ms); then the plans of the year's statements (which index,
 * how long inside PostgreSQL) and the check that the daily figures equal a recomputation from the
 * tickets (./report-check.ts).
 */
import qs from 'qs';
import { sql } from 'kysely';
import { DateTime } from 'luxon';
import type { Db } from '../server/db/database.ts';
import { DEFAULT_TIME_ZONE } from '../common/sla/calendar.ts';
import type { StatementCapture, Statement } from './capture.ts';
import { request } from './http.ts';
import type { RawRunner } from './api-vs-sql.ts';
import { median, percentile, timeCalls, type Budget } from './stats.ts';

export interface ReportCase {
  name: string;
  path: string;
  /** The issue's target for the median, where it sets one. */
  targetMs?: number;
}

export interface ReportResult {
  name: string;
  path: string;
  samples: number;
  median: number;
  p99: number;
  /** The answer's size in bytes (the file's, for the export). */
  bytes: number;
  targetMs?: number;
}

export interface ReportScope {
  /** The data set's last full calendar year, and its five years up to today. */
  year: number;
  fiveYears: { from: string; to: string };
  largest: { id: number; tickets: number };
  typical: { id: number; tickets: number };
}

/** What the cases read: the years of the data set and its largest and median-sized company. */
export async function reportScope(db: Db, tenantId: number): Promise<ReportScope> {
  const today = DateTime.now().setZone(DEFAULT_TIME_ZONE).startOf('day');
  const { rows } = await sql<{ company_id: number; n: number; rank: number; companies: number }>`
    with c as (
      select company_id, count(*)::int as n from tickets
      where tenant_id = ${tenantId} and not is_template and company_id is not null group by company_id
    )
    select company_id, n, (row_number() over (order by n desc, company_id))::int as rank,
      (count(*) over ())::int as companies
    from c order by n desc, company_id`.execute(db);
  const largest = rows[0]!;
  const typical = rows[Math.floor(rows.length / 2)]!;
  return {
    year: today.year - 1,
    // Five years back to today: 1,826 days, within the route's limit of 1,830.
    fiveYears: { from: today.minus({ years: 5 }).toISODate()!, to: today.toISODate()! },
    largest: { id: Number(largest.company_id), tickets: Number(largest.n) },
    typical: { id: Number(typical.company_id), tickets: Number(typical.n) },
  };
}

export function reportCases(scope: ReportScope): ReportCase[] {
  const year = { from: `${scope.year}-01-01`, to: `${scope.year}-12-31` };
  const report = (query: Record<string, unknown>) => `/api/reports/tickets?${qs.stringify(query)}`;
  return [
    { name: `${scope.year} by month`, path: report({ ...year, group: 'month' }), targetMs: 300 },
    {
      name: `5 years by month (${scope.fiveYears.from} to ${scope.fiveYears.to})`,
      path: report({ ...scope.fiveYears, group: 'month' }),
    },
    { name: `${scope.year} by week`, path: report({ ...year, group: 'week' }) },
    {
      name: `${scope.year}, largest company (${scope.largest.tickets.toLocaleString('en')} tickets)`,
      path: report({ ...year, group: 'month', company_id: [scope.largest.id] }),
      targetMs: 100,
    },
    {
      name: `${scope.year}, median company (${scope.typical.tickets.toLocaleString('en')} tickets)`,
      path: report({ ...year, group: 'month', company_id: [scope.typical.id] }),
      targetMs: 100,
    },
    {
      name: `${scope.year} per operator`,
      path: `/api/reports/tickets/breakdown?${qs.stringify({ ...year, by: 'operator_id' })}`,
    },
    {
      // Five years of one operator's resolution minutes pass 2^31 at a million tickets.
      name: '5 years per operator',
      path: `/api/reports/tickets/breakdown?${qs.stringify({ ...scope.fiveYears, by: 'operator_id' })}`,
    },
    {
      name: `${scope.year} per company`,
      path: `/api/reports/tickets/breakdown?${qs.stringify({ ...year, by: 'company_id' })}`,
    },
    {
      name: `${scope.year} by month, XLSX file`,
      path: `/api/reports/tickets/export?${qs.stringify({ ...year, group: 'month', format: 'xlsx', locale: 'en' })}`,
    },
  ];
}

export async function measureReport(
  base: string,
  c: ReportCase,
  headers: Record<string, string>,
  budget: Budget,
): Promise<ReportResult> {
  let bytes = 0;
  const call = async () => {
    const res = await request(base + c.path, { headers });
    if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${res.body.slice(0, 300)}`);
    bytes = res.bytes;
  };
  for (let i = 0; i < budget.warmup; i++) await call();
  const times = await timeCalls(call, budget);
  return {
    name: c.name,
    path: c.path,
    samples: times.length,
    median: median(times),
    p99: percentile(times, 99),
    bytes,
    targetMs: c.targetMs,
  };
}

export interface PlanFact {
  /** What the statement reads (its first table) and what it computes. */
  statement: string;
  /** The scans of its plan: node type and index. */
  scans: string;
  /** Execution time inside PostgreSQL (EXPLAIN ANALYZE), ms. */
  ms: number;
  rows: number;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/** A name for a captured statement of the report: which table and which figures. */
function statementName(text: string): string {
  const from = /from "(\w+)"/.exec(text)?.[1] ?? '?';
  if (text.includes('percentile_cont'))
    return `${from}: ${text.includes('"first_response_minutes"') ? 'response' : 'resolution'} percentiles`;
  if (text.includes('sum(created - solved)')) return `${from}: net after the range`;
  if (text.includes('count(*)')) return `${from}: open now`;
  if (from === 'ticket_report_days') return `${from}: figures per period`;
  return from;
}

/**
 * EXPLAIN ANALYZE of the statements one call runs (captured as the app ran them): per statement the
 * scans its plan uses and its time in PostgreSQL. On PostgreSQL only (`run` is a pg pool).
 */
export async function planFacts(
  base: string,
  c: ReportCase,
  headers: Record<string, string>,
  capture: StatementCapture,
  run: RawRunner,
): Promise<PlanFact[]> {
  const statements: Statement[] = await capture.record(async () => {
    const res = await request(base + c.path, { headers });
    if (res.status !== 200) throw new Error(`${c.name}: ${res.status}`);
  });
  const out: PlanFact[] = [];
  for (const s of statements) {
    // Only statements that ran are captured (a subquery's builder is not one: bench/capture.ts).
    if (!/^\s*(select|with)\b/i.test(s.sql)) continue;
    const result = (await run(`explain (analyze, format json) ${s.sql}`, s.parameters)) as {
      rows: { 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }[];
    };
    const [{ Plan: plan, 'Execution Time': time }] = result.rows[0]!['QUERY PLAN'];
    const scans: string[] = [];
    const walk = (node: PlanNode) => {
      if (node['Relation Name']) {
        const rows = (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);
        scans.push(
          `${node['Node Type']}${node['Index Name'] ? ` ${node['Index Name']}` : ` ${node['Relation Name']}`} (${rows.toLocaleString('en')} rows)`,
        );
      }
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(plan);
    out.push({
      statement: statementName(s.sql),
      scans: scans.join('; '),
      ms: time,
      rows: plan['Actual Rows'] ?? 0,
    });
  }
  return out;
}
