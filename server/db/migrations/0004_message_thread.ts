import { sql, type Kysely } from 'kysely';

/*
 * The message thread (issue 5), frozen in time like every migration.
 *
 * attachments.user_id is who uploaded the file: an inline image uploaded before its message exists is
 * visible only to its uploader (and operators) until a message of that uploader links it, and only the
 * uploader may link it.
 *
 * messages.recipients records who an e-mailed message went to: [{address, isClient, user}].
 *
 * signing_keys holds secrets the application signs with and every process shares: the key of the
 * short-lived attachment download links (images in a message cannot send a bearer token). Created here
 * from PostgreSQL's strong random generator, so no deployment starts without one.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table attachments add column user_id integer references users(id) on delete set null`.execute(
    db,
  );
  await sql`create index attachments_user_id_index on attachments (user_id) where message_id is null`.execute(
    db,
  );
  await sql`alter table messages add column recipients jsonb not null default '[]'`.execute(db);
  await sql`
    create table signing_keys (
      name text primary key,
      key text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`insert into signing_keys (name, key)
    values ('attachment-urls', replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists signing_keys`.execute(db);
  await sql`alter table messages drop column if exists recipients`.execute(db);
  await sql`drop index if exists attachments_user_id_index`.execute(db);
  await sql`alter table attachments drop column if exists user_id`.execute(db);
}
