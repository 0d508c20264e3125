import { sql, type Kysely } from 'kysely';

/*
 * A given-up mail keeps its body (and the reset or quote link in it) for MAIL_KEEP_GIVEN_UP_DAYS only;
 * each instance drops older ones once an hour (server/mail/outbox.ts forgetOldBodies). This index finds
 * them without reading the sent mail, which is nearly all of the table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index mail_outbox_kept_body_index on mail_outbox (failed_at)
    where status = 'failed' and mail is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists mail_outbox_kept_body_index`.execute(db);
}
