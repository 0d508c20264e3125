/**
 * What merging records of a resource needs (SPEC 7: POST tickets/merge and companies/merge {ids}): the
 * body, the row locks, and moving every row that points at the merged records to the kept one.
 *
 * The rows that point at a record are found, not listed by hand, so a new table is not forgotten: its
 * foreign keys come from the database's catalogue, its polymorphic owners (messages, custom values, which
 * have no foreign key) from the registry's morph relations. Where a unique index would be broken by the
 * move (a client in both companies, a custom field filled on both tickets) the kept record's row stays
 * and the merged record's row goes.
 */
import { sql, type RawBuilder } from 'kysely';
import type { DbTransaction } from '../db/database.ts';
import { bySchema } from '../db/schema-tables.ts';
import type { AuthContext } from '../auth/context.ts';
import { auditMerge } from '../audit/records.ts';
import { HttpError, ValidationError } from '../http/errors.ts';
import { idListBody } from '../http/ids.ts';
import type { Registry } from '../schema/registry.ts';
import type { Resource } from '../../common/schema/types.ts';
import { findRecord, type Deps } from './repository.ts';
import { serverText } from '../../common/server-texts.ts';

/** The most records one merge takes: a screen selects a page of them at most. */
export const MAX_MERGE = 100;

/** The body of a merge, which its schema checks: the ids, the kept record first. */
export const MERGE_BODY = idListBody({
  min: 2,
  max: MAX_MERGE,
  tooFew: serverText('merge_too_few'),
  tooMany: serverText('merge_too_many', { count: MAX_MERGE }),
  description: 'The first id is the record that is kept.',
});

/** What a merge route's documentation says about ids that cannot be merged and about racing merges. */
export const MERGE_FAILS =
  'An id that does not exist, is not visible to the caller or went in a merge that committed first is a ' +
  '422 naming it (`ids.<n>`), and nothing changes. The records are locked in id order, so two merges on ' +
  'overlapping ids wait for each other and lose no rows.';

/**
 * Locks the records in id order (two merges on overlapping ids then wait for each other instead of
 * deadlocking) and checks, under the lock, that the caller sees every one of them: an id that does not
 * exist, is of another tenant, or went in a merge that committed first is a 422 naming it. The first
 * id is the one kept; the merge's audit entry is written here.
 */
export async function lockForMerge(
  deps: Deps,
  trx: DbTransaction,
  auth: AuthContext,
  resource: Resource,
  ids: number[],
): Promise<void> {
  const sorted = [...ids].sort((a, b) => a - b);
  await bySchema(trx)
    .selectFrom(resource.table)
    .select('id')
    .where('id', 'in', sorted)
    .$if(resource.tenant, (q) => q.where('tenant_id', '=', auth.tenantId))
    .orderBy('id')
    .forUpdate()
    .execute();
  const errors: Record<string, string[]> = {};
  for (const [i, id] of ids.entries()) {
    try {
      await findRecord(deps, auth, resource, id, undefined, trx);
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 404) throw error;
      errors[`ids.${i}`] = [
        serverText('merge_record_invalid', { resource: resource.title.toLowerCase(), id }),
      ];
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  // Every merge starts here, in its transaction: its audit entry commits with it or not at all.
  await auditMerge(trx, auth, resource, ids);
}

/** A column that holds the id of a record of the merged resource: a foreign key or a polymorphic owner. */
interface Reference {
  schema: string;
  table: string;
  column: string;
  /** Polymorphic owners: the type column and the resource's type value. */
  morph?: { column: string; value: string };
  /** Other columns of each unique index that holds `column` (each index one list). */
  uniques: string[][];
}

interface CatalogueRow {
  schema: string;
  table: string;
  column: string;
  uniques: string[][] | string;
}

const asList = <T>(value: T[] | string): T[] => (typeof value === 'string' ? JSON.parse(value) : value);

/** The unique indexes over plain columns (no expression, no condition) of a table, each as its columns. */
const UNIQUES = (relation: RawBuilder<unknown>) => sql`coalesce((
  select json_agg(cols) from (
    select (select json_agg(a.attname::text order by k.n)
            from unnest(i.indkey::int2[]) with ordinality as k(attnum, n)
            join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum) as cols
    from pg_index i
    where i.indrelid = ${relation} and i.indisunique and i.indexprs is null and i.indpred is null
  ) u), '[]'::json)`;

/** Every single-column foreign key to the resource's table, with the unique indexes of its table. */
async function foreignKeys(trx: DbTransaction, resource: Resource): Promise<Reference[]> {
  const { rows } = await sql<CatalogueRow>`
    select ns.nspname::text as schema, cl.relname::text as table, att.attname::text as column,
           ${UNIQUES(sql`c.conrelid`)} as uniques
    from pg_constraint c
    join pg_class cl on cl.oid = c.conrelid
    join pg_namespace ns on ns.oid = cl.relnamespace
    join pg_attribute att on att.attrelid = c.conrelid and att.attnum = c.conkey[1]
    where c.contype = 'f' and cardinality(c.conkey) = 1
      and c.confrelid = to_regclass(${resource.table})
    order by cl.relname, att.attname`.execute(trx);
  return rows.map((row) => ({ ...row, uniques: asList(row.uniques) }));
}

/** The tables whose rows a record of the resource owns polymorphically (registry: morphMany and morphTo). */
function morphOwners(
  registry: Registry,
  resource: Resource,
): { table: string; morph: string; value: string }[] {
  const found = new Map<string, { table: string; morph: string; value: string }>();
  const add = (table: string, morph: string, value: string) =>
    found.set(`${table}.${morph}.${value}`, { table, morph, value });
  for (const relation of Object.values(resource.relations)) {
    if (relation.kind === 'morphMany' && resource.morphType)
      add(registry.require(relation.resource).table, relation.morph, resource.morphType);
  }
  for (const other of registry.resources.values()) {
    for (const relation of Object.values(other.relations)) {
      if (relation.kind !== 'morphTo') continue;
      for (const [value, target] of Object.entries(relation.types)) {
        if (registry.get(target)?.table === resource.table) add(other.table, relation.morph, value);
      }
    }
  }
  return [...found.values()];
}

async function morphReferences(
  trx: DbTransaction,
  registry: Registry,
  resource: Resource,
): Promise<Reference[]> {
  const references: Reference[] = [];
  for (const owner of morphOwners(registry, resource)) {
    const column = `${owner.morph}_id`;
    const { rows } = await sql<Omit<CatalogueRow, 'column'>>`
      select ns.nspname::text as schema, cl.relname::text as table, ${UNIQUES(sql`cl.oid`)} as uniques
      from pg_class cl join pg_namespace ns on ns.oid = cl.relnamespace
      where cl.oid = to_regclass(${owner.table})`.execute(trx);
    const row = rows[0];
    if (!row) continue;
    references.push({
      schema: row.schema,
      table: row.table,
      column,
      morph: { column: `${owner.morph}_type`, value: owner.value },
      uniques: asList(row.uniques),
    });
  }
  return references;
}

/**
 * Moves every row that points at one of `merged` to `kept`, in the caller's transaction. Rows that would
 * duplicate one of the kept record under a unique index are deleted first (the kept record's row wins);
 * the merged records are handled one after the other, so two of them cannot collide with each other.
 * Returns the number of rows moved per table.
 */
export async function moveReferences(
  trx: DbTransaction,
  registry: Registry,
  resource: Resource,
  kept: number,
  merged: number[],
): Promise<Record<string, number>> {
  const references = [
    ...(await foreignKeys(trx, resource)),
    ...(await morphReferences(trx, registry, resource)),
  ];
  const moved: Record<string, number> = {};
  for (const reference of references) {
    const table = sql.id(reference.schema, reference.table);
    const col = (alias: string, name: string) => sql.ref(`${alias}.${name}`);
    const owner = (alias: string, id: number) =>
      sql.join(
        [
          sql`${col(alias, reference.column)} = ${id}`,
          ...(reference.morph ? [sql`${col(alias, reference.morph.column)} = ${reference.morph.value}`] : []),
        ],
        sql` and `,
      );
    const skip = new Set([reference.column, reference.morph?.column]);
    for (const id of merged) {
      for (const unique of reference.uniques) {
        if (!unique.includes(reference.column)) continue;
        const same = unique.filter((c) => !skip.has(c)).map((c) => sql`${col('o', c)} = ${col('r', c)}`);
        await sql`delete from ${table} as r where ${owner('r', id)} and exists (
          select 1 from ${table} as o where ${sql.join([owner('o', kept), ...same], sql` and `)})`.execute(
          trx,
        );
      }
      const result = await sql`update ${table} as r set ${sql.id(reference.column)} = ${kept}
        where ${owner('r', id)}`.execute(trx);
      const key = reference.morph
        ? `${reference.table} (${reference.morph.value})`
        : `${reference.table}.${reference.column}`;
      moved[key] = (moved[key] ?? 0) + Number(result.numAffectedRows ?? 0);
    }
  }
  return moved;
}
