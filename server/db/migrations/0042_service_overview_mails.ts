import { sql, type Kysely } from 'kysely';

/*
 * The client portal's monthly service overview mail (issue 36, item 3), frozen in time like every
 * migration. One row per client and month (the month's first day) whose overview was queued: written
 * in the transaction of the outbox row, so that however many instances run the monthly pass, one of
 * them inserts the row and queues the mail and the others' inserts do nothing
 * (server/reports/service-overview-mail.ts).
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table service_overview_mails (
      tenant_id integer not null references tenants(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      month date not null,
      created_at timestamptz not null default now(),
      primary key (tenant_id, user_id, month)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists service_overview_mails`.execute(db);
}
