import { sql, type Kysely } from 'kysely';

/*
 * The PostgreSQL file store (server/files/postgres-store.ts): a row per file and its content in chunks
 * of 256 KB. bytea rows rather than large objects: they are ordinary rows (dumped, replicated,
 * removed with a delete, visible to one schema only), and each chunk is read by one short statement.
 * A file is read only once `complete`; `touched_at` moves with every chunk written, so the sweep can
 * tell a put in progress from one whose process died.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table stored_files (
      key text primary key,
      size bigint,
      complete boolean not null default false,
      touched_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index stored_files_incomplete on stored_files (touched_at) where not complete`.execute(db);
  await sql`
    create table stored_file_chunks (
      key text not null references stored_files (key) on delete cascade,
      seq integer not null,
      data bytea not null,
      primary key (key, seq)
    )`.execute(db);
  // Uploads are mostly compressed already (images, archives, office files): no compression attempt.
  await sql`alter table stored_file_chunks alter column data set storage external`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists stored_file_chunks`.execute(db);
  await sql`drop table if exists stored_files`.execute(db);
}
