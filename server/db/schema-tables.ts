/**
 * The one untyped view of the database, for the generic layer that serves every resource from its JSON
 * Schema (server/resources/repository.ts, server/query/): there the table and column names are not in
 * the source but read at run time from the schema (`resource.table`, a field's column, a relation's
 * foreign key), so no static table type can describe them.
 *
 * What keeps those statements right is not TypeScript but the schema: a name reaches SQL only after it
 * was checked against the resource's own fields and relations (query/parse.ts whitelists every
 * requested field, filter and sort; toColumns writes only schema fields), and the schema test
 * (tests/api/schema-migration.test.ts) checks every schema column against the migrated database.
 *
 * Use it only where the table name is not a literal; a statement on a named table takes the typed `Db`.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Db, DbTransaction } from './database.ts';

/** Any table, any column: the names come from a resource's schema, checked against it at run time. */
export type SchemaTables = Record<string, Record<string, unknown>>;
export type SchemaDb = Kysely<SchemaTables>;
export type SchemaTransaction = Transaction<SchemaTables>;

/** The same connection (or transaction) seen through the schema-driven view: no new connection. */
export function bySchema(db: DbTransaction): SchemaTransaction;
export function bySchema(db: Db): SchemaDb;
export function bySchema(db: Db): SchemaDb {
  return db as unknown as SchemaDb;
}
