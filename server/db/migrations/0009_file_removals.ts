import { sql, type Kysely } from 'kysely';

/*
 * Files whose attachment row is gone (a message deleted, a ticket's thread merged away, an inline image
 * never used) are removed from the store. The database says which: a trigger queues the path of every
 * deleted attachment row in the same transaction, so a rolled-back delete queues nothing and a crash
 * between commit and removal loses nothing; the sweeper (server/files/sweep.ts) empties the queue.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table file_removals (
      path text primary key,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create function queue_attachment_file_removal() returns trigger language plpgsql as $$
    begin
      insert into file_removals (path) values (old.path) on conflict do nothing;
      return old;
    end
    $$`.execute(db);
  await sql`
    create trigger attachments_queue_file_removal after delete on attachments
    for each row execute function queue_attachment_file_removal()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists attachments_queue_file_removal on attachments`.execute(db);
  await sql`drop function if exists queue_attachment_file_removal()`.execute(db);
  await sql`drop table if exists file_removals`.execute(db);
}
