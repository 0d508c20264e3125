/**
 * One export job: the user's list with the job's filter, every page of it, through the same parser,
 * whitelist and tenant/company scoping as `GET /api/{resource}` (query/parse.ts, query/sql.ts), written
 * as CSV and XLSX and put in the file store.
 *
 * The job runs with the user's access as it is when it runs, not as it was when it was asked for: a
 * user who lost the permission meanwhile gets a failed job, not the list.
 */
import { createReadStream } from 'node:fs';
import type { AuthContext } from '../auth/context.ts';
import { loadAuthUser } from '../auth/user.ts';
import type { Db } from '../db/database.ts';
import { forbidden, ValidationError } from '../http/errors.ts';
import type { Registry } from '../schema/registry.ts';
import type { Resource } from '../../common/schema/types.ts';
import type { FileStore } from '../files/store.ts';
import { hookTable } from '../resources/hooks.ts';
import { may } from '../auth/may.ts';
import { parseListQuery } from '../query/parse.ts';
import { keyFieldsFor, loadRelations, type Row } from '../query/relations.ts';
import { sqlContext } from '../query/sql.ts';
import { listStatements } from '../query/select.ts';
import type { ListQuery } from '../query/tree.ts';
import { formatterFor, headerOf, relationsFor, resolveColumns } from './columns.ts';
import { openExportFiles } from './files.ts';
import type { ExportJob } from './jobs.ts';

/** tenant.exports.index for operators; portal.exports.index would be the portal's (SPEC 6). */
export function mayExport(auth: AuthContext): boolean {
  if (auth.kind === 'record-token') return false;
  return auth.permissions.has(`${auth.kind === 'operator' ? 'tenant' : 'portal'}.exports.index`);
}

/**
 * The model, filter and columns of an export as the caller may ask for them: unknown model or bad
 * filter 422, no permission 403. The same check when the job is queued and when it runs.
 */
export function checkExport(
  registry: Registry,
  auth: AuthContext,
  request: { model: unknown; filter: unknown; columns: unknown },
) {
  if (!mayExport(auth)) throw forbidden();
  const resource = typeof request.model === 'string' ? registry.get(request.model) : undefined;
  if (!resource)
    throw new ValidationError({
      model: [`Unknown model ${JSON.stringify(String(request.model)).slice(0, 60)}.`],
    });
  if (!resource.actions.includes('index'))
    throw new ValidationError({ model: [`${resource.name} has no list to export.`] });
  if (!may(auth, resource, 'index')) throw forbidden();
  // The export's own columns decide what it reads: a list screen's `select` in its filter does not.
  const { columns: _shown, ...query } = asFilter(() =>
    parseListQuery({ registry, auth }, resource, { builder: request.filter ?? [] }),
  );
  const columns = resolveColumns(resource, auth, request.columns);
  return { resource, query, columns };
}

/** The list parser names the builder `builder`; the export's body calls it `filter`. */
function asFilter<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof ValidationError) || !error.errors) throw error;
    const renamed = Object.entries(error.errors).map(([key, lines]) => [
      key.replace(/^builder/, 'filter'),
      lines,
    ]);
    throw new ValidationError(Object.fromEntries(renamed), error.message);
  }
}

/** The job's user as the API would see them now; undefined when archived or gone. */
async function jobAuth(db: Db, job: ExportJob): Promise<AuthContext | undefined> {
  const user = await loadAuthUser(db, job.tenantId, job.userId, '');
  if (!user) return undefined;
  return {
    kind: user.isStaff ? 'operator' : 'client',
    userId: user.id,
    tenantId: job.tenantId,
    isOperator: user.isOperator,
    permissions: new Set(user.permissions),
    companyIds: user.companyIds,
    companyRoles: user.companyRoles,
    categoryIds: user.categoryIds,
  };
}

export class ExportInterrupted extends Error {}

export interface RunDeps {
  db: Db;
  registry: Registry;
  store: FileStore;
  /** Rows read per statement. */
  pageSize: number;
}

async function* allRows(
  deps: RunDeps,
  auth: AuthContext,
  resource: Resource,
  query: ListQuery,
  signal: AbortSignal,
): AsyncGenerator<Row> {
  const keys = keyFieldsFor(resource, query.with);
  const { presentColumns, presentRows } = await hookTable();
  for (let page = 1; ; page++) {
    if (signal.aborted) throw new ExportInterrupted();
    const ctx = sqlContext(deps.registry, auth, presentColumns);
    // Only the rows statement: the count of every page is not needed to read them all.
    const { rows: statement } = listStatements(
      ctx,
      resource,
      { ...query, page, perPage: deps.pageSize },
      keys,
    );
    const rows = (await statement.execute(deps.db)).rows as Row[];
    await loadRelations(deps.db, ctx, resource, rows, query.with, presentRows);
    yield* rows;
    if (rows.length < deps.pageSize) return;
  }
}

export async function runExport(
  deps: RunDeps,
  job: ExportJob,
  signal: AbortSignal,
): Promise<{ rowCount: number; csvKey: string; xlsxKey: string }> {
  const auth = await jobAuth(deps.db, job);
  if (!auth) throw forbidden();
  const { resource, query, columns } = checkExport(deps.registry, auth, job);
  const fields = columns.map((c) => resource.fields[c.name]!);
  const formatters = fields.map((f) => formatterFor(deps.registry, resource, f, auth, job.locale));
  const files = await openExportFiles(
    columns.map((c) => headerOf(resource, c, job.locale)),
    formatters.map((f) => f.kind),
    resource.title,
  );
  try {
    let rowCount = 0;
    const listQuery: ListQuery = { ...query, with: relationsFor(resource, columns), withCount: [] };
    for await (const row of allRows(deps, auth, resource, listQuery, signal)) {
      await files.add(
        formatters.map((f) => f.text(row)),
        formatters.map((f) => f.cell(row)),
      );
      rowCount++;
    }
    const paths = await files.finish();
    const csv = await deps.store.put(createReadStream(paths.csv));
    try {
      const xlsx = await deps.store.put(createReadStream(paths.xlsx));
      return { rowCount, csvKey: csv.key, xlsxKey: xlsx.key };
    } catch (error) {
      await deps.store.remove(csv.key);
      throw error;
    }
  } finally {
    await files.discard();
  }
}
