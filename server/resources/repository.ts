/**
 * The generic operations on any resource: list, find, store, update, destroy, reorder, preset counts.
 * Plain functions over `db`; every statement goes through baseConditions (tenant, fixed conditions,
 * portal scope) from query/sql.ts.
 */
import { sql } from 'kysely';
import type { AuthContext } from '../auth/context.ts';
import type { Db, DbTransaction } from '../db/database.ts';
import { bySchema } from '../db/schema-tables.ts';
import { HttpError, notFound, ValidationError } from '../http/errors.ts';
import type { Field, Resource } from '../../common/schema/types.ts';
import { isPortalCaller, readableFields } from '../query/visibility.ts';
import { keyFieldsFor, loadRelations, type Row } from '../query/relations.ts';
import { countTableCovers, countTables } from '../query/counts.ts';
import { baseConditions, compileCondition, presentColumnsOf, sqlContext } from '../query/sql.ts';
import { and, ref, tableAs, unique } from '../query/fragments.ts';
import {
  countSubqueries,
  sumSubqueries,
  listStatements,
  selectFields,
  TOTAL_COLUMN,
  toOneColumns,
} from '../query/select.ts';
import type { Condition, ListQuery, RelationSum, WithTree } from '../query/tree.ts';
import type { Relation } from '../../common/schema/types.ts';
import { hookTable } from './hooks.ts';
import type { Deps, Paginated } from './repository-contract.ts';
import { checkPasswords, hashPasswords } from './passwords.ts';
import { sanitizeRichText } from '../html/rich-text.ts';
import { writableFieldsFor } from '../../common/schema/fields.ts';
import { takeCustomFields, writeCustomValues } from './custom-values.ts';
import { takeFlags } from './flags.ts';
import { serverText } from '../../common/server-texts.ts';
import { auditRecord } from '../audit/records.ts';

export type { Deps, Paginated };

/**
 * The rows of a list page with their relations and no total: for readers that need no paging figures
 * (the lists loaded at login), one statement per list instead of two.
 */
export async function listRows(
  deps: Deps,
  auth: AuthContext,
  resource: Resource,
  query: ListQuery,
): Promise<Row[]> {
  const { presentColumns, presentRows } = await hookTable();
  const ctx = sqlContext(deps.registry, auth, presentColumns);
  const { rows } = listStatements(ctx, resource, query, keyFieldsFor(resource, query.with));
  const data = (await rows.execute(deps.db)).rows as Row[];
  await loadRelations(deps.db, ctx, resource, data, query.with, presentRows, query.columns);
  return data;
}

export async function listRecords(
  deps: Deps,
  auth: AuthContext,
  resource: Resource,
  query: ListQuery,
): Promise<Paginated> {
  const { presentColumns, presentRows } = await hookTable();
  const ctx = sqlContext(deps.registry, auth, presentColumns);
  const statements = listStatements(
    ctx,
    resource,
    query,
    keyFieldsFor(resource, query.with),
    [],
    await countTableFor(deps.db, resource, auth, query.conditions),
    true,
  );
  // The page carries its total (one round trip); a page past the last row has no row to carry it.
  const data = (await statements.rows.execute(deps.db)).rows as Row[];
  const offset = (query.page - 1) * query.perPage;
  let total = 0;
  if (data.length) total = Number(data[0]![TOTAL_COLUMN]);
  else if (offset > 0)
    total = Number(((await statements.count.execute(deps.db)).rows[0] as { total: number }).total);
  for (const row of data) delete row[TOTAL_COLUMN];
  await loadRelations(deps.db, ctx, resource, data, query.with, presentRows, query.columns);
  return {
    data,
    total,
    from: data.length ? offset + 1 : null,
    to: data.length ? offset + data.length : null,
    per_page: query.perPage,
    current_page: query.page,
    last_page: Math.max(1, Math.ceil(total / query.perPage)),
  };
}

export async function findRecord(
  deps: Deps,
  auth: AuthContext,
  resource: Resource,
  id: number,
  show: { with: WithTree; withCount: Relation[]; withSum?: RelationSum[] } = { with: {}, withCount: [] },
  db: Db = deps.db,
): Promise<Row> {
  const { presentColumns, presentRows } = await hookTable();
  const ctx = sqlContext(deps.registry, auth, presentColumns);
  const alias = ctx.nextAlias();
  const fields = unique([...readableFields(resource, auth), ...keyFieldsFor(resource, show.with)]);
  const columns = [
    selectFields(ctx, alias, fields),
    ...countSubqueries(ctx, resource, alias, show.withCount),
    ...sumSubqueries(ctx, resource, alias, show.withSum ?? []),
    ...toOneColumns(ctx, resource, alias, show.with),
    ...presentColumnsOf(ctx, resource, alias),
  ];
  const where = and([sql`${ref(alias, 'id')} = ${id}`, ...baseConditions(ctx, resource, alias)]);
  const { rows } =
    await sql`select ${sql.join(columns)} from ${tableAs(resource, alias)} where ${where}`.execute(db);
  const row = rows[0] as Row | undefined;
  if (!row) throw notFound();
  await loadRelations(db, ctx, resource, [row], show.with, presentRows);
  return row;
}

/** The summary table that answers this count exactly (query/counts.ts), if one does. */
async function countTableFor(
  db: Db,
  resource: Resource,
  auth: AuthContext,
  conditions: Condition[],
): Promise<string | undefined> {
  const tables = (await countTables(db)).get(resource.table) ?? [];
  return tables.find((counts) => countTableCovers(counts, resource, auth, conditions))?.table;
}

/** Preset counts: every builder's count in one statement, one subquery each. */
export async function countPresets(
  deps: Deps,
  auth: AuthContext,
  resource: Resource,
  presets: { id: string | number; conditions: Condition[] }[],
): Promise<{ id: string | number; count: number }[]> {
  if (presets.length === 0) return [];
  const ctx = sqlContext(deps.registry, auth);
  const summaries = await Promise.all(
    presets.map((p) => countTableFor(deps.db, resource, auth, p.conditions)),
  );
  const counts = presets.map((p, i) => {
    const alias = ctx.nextAlias();
    const where = and([
      ...baseConditions(ctx, resource, alias),
      ...p.conditions.map((c) => compileCondition(ctx, resource, alias, c)),
    ]);
    const summary = summaries[i];
    const count = summary
      ? sql`select coalesce(sum(${ref(alias, 'n')}), 0)::int from ${sql.table(summary)} as ${sql.id(alias)} where ${where}`
      : sql`select count(*)::int from ${tableAs(resource, alias)} where ${where}`;
    return sql`(${count}) as ${sql.id(`c${i}`)}`;
  });
  const { rows } = await sql`select ${sql.join(counts)}`.execute(deps.db);
  const row = rows[0] as Record<string, number>;
  return presets.map((p, i) => ({ id: p.id, count: Number(row[`c${i}`]) }));
}

/** Fields a caller may send (the rule the apps' forms follow too). */
export function writableFields(resource: Resource, auth: AuthContext): Field[] {
  return writableFieldsFor(resource, isPortalCaller(auth));
}

/** Body values -> column values: JSON columns as JSON text (passwords come hashed: hashPasswords). */
function toColumns(resource: Resource, data: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data)) {
    const field = resource.fields[name]!;
    if ((field.type === 'object' || field.type === 'array') && value !== null)
      row[field.column] = JSON.stringify(value);
    else row[field.column] = value;
  }
  return row;
}

/**
 * A foreign key must point at a record of the same tenant that the caller may see: the database's own
 * foreign keys do not know about tenants or the portal.
 */
export async function checkReferences(
  deps: Deps,
  trx: DbTransaction,
  auth: AuthContext,
  resource: Resource,
  data: Record<string, unknown>,
) {
  const errors: Record<string, string[]> = {};
  const ctx = sqlContext(deps.registry, auth);
  for (const relation of Object.values(resource.relations)) {
    if (relation.kind !== 'belongsTo') continue;
    const value = data[relation.key];
    if (value === undefined || value === null) continue;
    const target = deps.registry.require(relation.resource);
    const alias = ctx.nextAlias();
    const where = and([sql`${ref(alias, 'id')} = ${value}`, ...baseConditions(ctx, target, alias)]);
    const { rows } = await sql`select 1 from ${tableAs(target, alias)} where ${where}`.execute(trx);
    if (rows.length === 0)
      (errors[relation.key] ??= []).push(serverText('selected_invalid', { field: relation.key }));
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

function fixedValues(resource: Resource, auth: AuthContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, , value] of [
    ...resource.fixedWhere,
    ...(isPortalCaller(auth) ? (resource.portal?.where ?? []) : []),
  ]) {
    out[resource.fields[name]!.column] = value;
  }
  return out;
}

/** Database constraint errors -> a 422/409 that names the field, never the database's own words. */
export function mapDatabaseError(error: unknown, resource: Resource, action: 'write' | 'delete'): never {
  const e = error as { code?: string; column?: string; detail?: string; constraint?: string };
  const fieldIn = (text: string | undefined) =>
    Object.values(resource.fields).find((f) => text && new RegExp(`\\b${f.column}\\b`).test(text))?.name;
  switch (e.code) {
    case '23505': {
      const field = fieldIn(e.detail?.split('=')[0]) ?? fieldIn(e.constraint) ?? 'id';
      throw new ValidationError({ [field]: [serverText('value_taken', { field })] });
    }
    case '23503':
      if (action === 'delete') throw new HttpError(409, serverText('record_in_use'));
      throw new ValidationError({
        [fieldIn(e.detail?.split('=')[0]) ?? fieldIn(e.constraint) ?? 'id']: [serverText('value_invalid')],
      });
    case '23502': {
      const field =
        Object.values(resource.fields).find((f) => f.column === e.column)?.name ?? e.column ?? 'field';
      throw new ValidationError({ [field]: [serverText('field_required', { field })] });
    }
    case '23514':
    case '22P02':
    case '22003':
    case '22007':
    case '22008':
    case '22001':
      throw new ValidationError({ body: [serverText('value_not_valid')] });
    default:
      throw error;
  }
}

/**
 * Stores the record and answers its id; `alsoInTransaction`: the caller's own writes that belong with
 * this record (a message's files), run after the insert and the hooks, in the same transaction. For a
 * caller that reads the record back its own way (a message with its attachments).
 */
export async function insertRecord(
  deps: Deps,
  auth: AuthContext,
  resource: Resource,
  body: unknown,
  alsoInTransaction?: (id: number, trx: DbTransaction) => Promise<void>,
): Promise<number> {
  const { body: recordBody, values: customValues } = takeCustomFields(resource, body);
  const checked = deps.validation.check(resource, recordBody, writableFields(resource, auth), true);
  checkPasswords(resource, checked);
  const data = sanitizeRichText(resource, await hashPasswords(deps.passwords, resource, checked));
  const hooks = (await hookTable()).of(resource);
  let id: number;
  try {
    id = await deps.db.transaction().execute(async (trx) => {
      await checkReferences(deps, trx, auth, resource, data);
      const row = { ...toColumns(resource, data), ...fixedValues(resource, auth) };
      if (resource.tenant) row.tenant_id = auth.tenantId;
      const owner = resource.owner ? resource.fields[resource.owner]! : undefined;
      // A client's rows are always its own; an operator may create one for someone else.
      if (owner && auth.userId !== null && (isPortalCaller(auth) || data[owner.name] === undefined)) {
        row[owner.column] = auth.userId;
      }
      await hooks.beforeStore?.(row, { trx, auth, resource });
      const stored = await bySchema(trx)
        .insertInto(resource.table)
        .values(row)
        .returningAll()
        .executeTakeFirstOrThrow();
      const newId = Number(stored.id);
      await hooks.afterStore?.(newId, { trx, auth, resource, stored });
      await alsoInTransaction?.(newId, trx);
      await writeCustomValues(trx, auth, resource, newId, customValues, true);
      await auditRecord(trx, auth, resource, 'store', newId, { after: data });
      if (isPortalCaller(auth)) {
        // A client may only create what it can then see (its own companies): otherwise undo.
        await findRecord(deps, auth, resource, newId, undefined, trx).catch(() => {
          throw new ValidationError({ body: [serverText('create_refused')] });
        });
      }
      return newId;
    });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    mapDatabaseError(error, resource, 'write');
  }
  return id;
}

/** Stores the record (`insertRecord`) and answers it as the caller may read it. */
export async function storeRecord(...args: Parameters<typeof insertRecord>): Promise<Row> {
  const [deps, auth, resource] = args;
  return findRecord(deps, auth, resource, await insertRecord(...args));
}

export async function updateRecord(
  deps: Deps,
  auth: AuthContext,
  resource: Resource,
  id: number,
  body: unknown,
): Promise<Row> {
  const current = await findRecord(deps, auth, resource, id);
  const { body: plainBody, flags } = takeFlags(resource, body);
  const { body: recordBody, values: customValues } = takeCustomFields(resource, plainBody);
  const checked = deps.validation.check(resource, recordBody, writableFields(resource, auth), false);
  checkPasswords(resource, checked, current);
  const data = sanitizeRichText(resource, await hashPasswords(deps.passwords, resource, checked));
  const hooks = (await hookTable()).of(resource);
  if (Object.keys(data).length > 0 || customValues) {
    try {
      await deps.db.transaction().execute(async (trx) => {
        await checkReferences(deps, trx, auth, resource, data);
        const changes = toColumns(resource, data);
        await hooks.beforeUpdate?.(id, changes, { trx, auth, resource, flags });
        if (resource.fields.updated_at) changes.updated_at = sql`now()`;
        if (Object.keys(changes).length) {
          await bySchema(trx)
            .updateTable(resource.table)
            .set(changes)
            .where('id', '=', id)
            .$if(resource.tenant, (q) => q.where('tenant_id', '=', auth.tenantId))
            .execute();
        }
        const changed = await writeCustomValues(trx, auth, resource, id, customValues, false);
        if (changed.length) await hooks.customValuesChanged?.(id, changed, { trx, auth, resource, flags });
        await hooks.afterUpdate?.(id, { trx, auth, resource, flags });
        await auditRecord(trx, auth, resource, 'update', id, { before: current, after: data });
        if (isPortalCaller(auth)) {
          await findRecord(deps, auth, resource, id, undefined, trx).catch(() => {
            throw new ValidationError({ body: [serverText('move_refused')] });
          });
        }
      });
    } catch (error) {
      if (error instanceof HttpError) throw error;
      mapDatabaseError(error, resource, 'write');
    }
  }
  return findRecord(deps, auth, resource, id);
}

export async function destroyRecord(
  deps: Deps,
  auth: AuthContext,
  resource: Resource,
  id: number,
): Promise<void> {
  const current = await findRecord(deps, auth, resource, id);
  const hooks = (await hookTable()).of(resource);
  try {
    await deps.db.transaction().execute(async (trx) => {
      await hooks.beforeDestroy?.(id, { trx, auth, resource });
      await auditRecord(trx, auth, resource, 'destroy', id, { before: current });
      await bySchema(trx)
        .deleteFrom(resource.table)
        .where('id', '=', id)
        .$if(resource.tenant, (q) => q.where('tenant_id', '=', auth.tenantId))
        .execute();
    });
  } catch (error) {
    if (error instanceof HttpError) throw error;
    mapDatabaseError(error, resource, 'delete');
  }
}

/** PUT /{resource}/{id}/update-order {order}: an update of the resource's order field alone (the route's
 * schema has checked the order: a whole number from 0 to 1,000,000). */
export async function updateOrder(
  deps: Deps,
  auth: AuthContext,
  resource: Resource,
  id: number,
  order: number,
): Promise<Row> {
  if (!resource.fields[resource.orderField]) throw notFound();
  return updateRecord(deps, auth, resource, id, { [resource.orderField]: order });
}
