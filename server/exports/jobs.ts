/**
 * Export jobs in the database: queue, claim, finish, fail, release, and the user's own list. A job's
 * row is its whole state, so any process (a restarted one, another one) can finish it.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { ExportColumn } from './columns.ts';
import type { ExportLocale } from './messages.ts';

export type ExportStatus = 'queued' | 'running' | 'done' | 'failed';

export interface ExportJob {
  id: number;
  tenantId: number;
  userId: number;
  model: string;
  filter: unknown[];
  columns: ExportColumn[];
  locale: ExportLocale;
  origin: string;
  status: ExportStatus;
  attempts: number;
  rowCount: number | null;
  csvKey: string | null;
  xlsxKey: string | null;
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A job that failed this many times (a process died during it each time) is given up. */
export const MAX_ATTEMPTS = 3;

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

function toJob(row: Record<string, any>): ExportJob {
  return {
    id: Number(row.id),
    tenantId: Number(row.tenant_id),
    userId: Number(row.user_id),
    model: row.model,
    filter: json(row.filter) ?? [],
    columns: json(row.columns) ?? [],
    locale: row.locale,
    origin: row.origin,
    status: row.status,
    attempts: Number(row.attempts),
    rowCount: row.row_count === null ? null : Number(row.row_count),
    csvKey: row.csv_key,
    xlsxKey: row.xlsx_key,
    error: row.error,
    createdAt: date(row.created_at)!,
    finishedAt: date(row.finished_at),
  };
}

export async function queueJob(
  db: Db,
  job: Pick<ExportJob, 'tenantId' | 'userId' | 'model' | 'filter' | 'columns' | 'locale' | 'origin'>,
): Promise<ExportJob> {
  const row = await db
    .insertInto('export_jobs')
    .values({
      tenant_id: job.tenantId,
      user_id: job.userId,
      model: job.model,
      filter: JSON.stringify(job.filter),
      columns: JSON.stringify(job.columns),
      locale: job.locale,
      origin: job.origin,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toJob(row);
}

/**
 * Takes the oldest job that waits (queued, or running under a lease that ran out: its process died)
 * and leases it to this worker. SKIP LOCKED: workers of other processes claiming at the same moment
 * each get a different job, and none waits for another.
 */
export async function claimJob(db: Db, leaseMs: number): Promise<ExportJob | undefined> {
  const { rows } = await sql<Record<string, any>>`
    update export_jobs set
      status = 'running',
      attempts = attempts + 1,
      locked_until = now() + ${`${Math.ceil(leaseMs / 1000)} seconds`}::interval,
      started_at = coalesce(started_at, now())
    where id = (
      select id from export_jobs
      where status = 'queued'
        or (status = 'running' and attempts < ${MAX_ATTEMPTS}
            and (locked_until is null or locked_until < now()))
      order by id
      limit 1
      for update skip locked
    )
    returning *`.execute(db);
  return rows[0] ? toJob(rows[0]) : undefined;
}

/** Extends a running job's lease; false when the job is no longer this worker's to finish. */
export async function extendLease(db: Db, id: number, attempts: number, leaseMs: number): Promise<boolean> {
  const result = await sql`
    update export_jobs set locked_until = now() + ${`${Math.ceil(leaseMs / 1000)} seconds`}::interval
    where id = ${id} and status = 'running' and attempts = ${attempts}`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** The job is done; false when another worker took it over meanwhile (its lease had run out). */
export async function finishJob(
  db: Db,
  job: ExportJob,
  result: { rowCount: number; csvKey: string; xlsxKey: string },
): Promise<boolean> {
  const done = await db
    .updateTable('export_jobs')
    .set({
      status: 'done',
      row_count: result.rowCount,
      csv_key: result.csvKey,
      xlsx_key: result.xlsxKey,
      locked_until: null,
      error: null,
      finished_at: sql`now()`,
    })
    .where('id', '=', job.id)
    .where('status', '=', 'running')
    .where('attempts', '=', job.attempts)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) > 0;
}

export async function failJob(db: Db, job: ExportJob, error: string): Promise<boolean> {
  const failed = await db
    .updateTable('export_jobs')
    .set({ status: 'failed', error: error.slice(0, 500), locked_until: null, finished_at: sql`now()` })
    .where('id', '=', job.id)
    .where('status', '=', 'running')
    .where('attempts', '=', job.attempts)
    .executeTakeFirst();
  return Number(failed.numUpdatedRows) > 0;
}

/** A stopping process hands its job back at once, so the next process need not wait for the lease. */
export async function releaseJob(db: Db, job: ExportJob): Promise<void> {
  await db
    .updateTable('export_jobs')
    .set({ status: 'queued', locked_until: null, attempts: sql`greatest(attempts - 1, 0)` })
    .where('id', '=', job.id)
    .where('status', '=', 'running')
    .where('attempts', '=', job.attempts)
    .execute();
}

/** Jobs a dying process left behind too often: failed, so they stop coming back. */
export async function giveUpJobs(db: Db): Promise<ExportJob[]> {
  const { rows } = await sql<Record<string, any>>`
    update export_jobs set status = 'failed', error = 'The export was interrupted too often.',
      locked_until = null, finished_at = now()
    where status = 'running' and attempts >= ${MAX_ATTEMPTS} and locked_until < now()
    returning *`.execute(db);
  return rows.map(toJob);
}

export async function listJobs(db: Db, tenantId: number, userId: number, limit = 50): Promise<ExportJob[]> {
  const rows = await db
    .selectFrom('export_jobs')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toJob);
}

/** One job of the user in the tenant; anybody else's is not there (404). */
export async function findJob(
  db: Db,
  tenantId: number,
  userId: number,
  id: number,
): Promise<ExportJob | undefined> {
  const row = await db
    .selectFrom('export_jobs')
    .selectAll()
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? toJob(row) : undefined;
}
