import { sql, type Kysely } from 'kysely';

/*
 * Trigram indexes for the global search (issue 18 item 2), frozen in time like every migration. The
 * search is a case-insensitive substring test (ILIKE '%…%') on the fields of each schema's
 * x-global-search; 0001 indexed tickets' reference and description and companies' name, these are the
 * others: clients by name and e-mail (users: operators share the table and its index), assets by name and
 * serial number, quotes by name and invoices by code. The operator class is qualified with wherever
 * 0001 installed pg_trgm (public, or a test's own schema).
 */

const TRIGRAM: [table: string, column: string][] = [
  ['users', 'full_name'],
  ['users', 'email'],
  ['assets', 'name'],
  ['assets', 'serial_number'],
  ['quotes', 'name'],
  ['invoices', 'code'],
];

const indexName = (table: string, column: string) => `${table}_${column}_trgm_idx`;

export async function up(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  const trgmSchema = rows[0]!.schema.replace(/"/g, '""');
  for (const [table, column] of TRIGRAM) {
    await sql
      .raw(
        `create index if not exists ${indexName(table, column)} on ${table} using gin (${column} "${trgmSchema}".gin_trgm_ops)`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column] of TRIGRAM)
    await sql.raw(`drop index if exists ${indexName(table, column)}`).execute(db);
}
