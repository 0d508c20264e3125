import { sql, type Kysely } from 'kysely';

/*
 * Scheduled reports (issue 36, item 4), frozen in time like every migration.
 *
 * report_subscriptions: an operator's standing order for a report by mail, weekly or monthly, with the
 * report's settings as the reports page had them (`settings`: grouping, line, filters, breakdown key;
 * never the dates: each mail covers the period just ended). `active_since`: the moment it was made or
 * last resumed; a period that ended before it is not sent.
 *
 * report_deliveries: one row per subscription and period, unique, written in the same transaction as
 * the mail's outbox row: however many instances look, and after any restart, a period is mailed once.
 * The attached files' keys travel in the outbox row's context, and are queued for removal
 * (file_removals) once the mail is sent.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table report_subscriptions (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      report text not null check (report in ('tickets', 'time')),
      frequency text not null check (frequency in ('weekly', 'monthly')),
      delivery text not null check (delivery in ('xlsx', 'link')),
      settings jsonb not null,
      paused boolean not null default false,
      active_since timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  // An operator's own list; the schema's default sort; the job's look at the active ones.
  await sql`create index report_subscriptions_user_index on report_subscriptions (tenant_id, user_id, id)`.execute(
    db,
  );
  await sql`create index report_subscriptions_id_index on report_subscriptions (tenant_id, id)`.execute(db);
  await sql`create index report_subscriptions_active_index on report_subscriptions (frequency, id)
    where not paused`.execute(db);
  await sql`
    create table report_deliveries (
      subscription_id integer not null references report_subscriptions(id) on delete cascade,
      period_start date not null,
      mail_outbox_id integer references mail_outbox(id) on delete set null,
      created_at timestamptz not null default now(),
      primary key (subscription_id, period_start)
    )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists report_deliveries`.execute(db);
  await sql`drop table if exists report_subscriptions`.execute(db);
}
