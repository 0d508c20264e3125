import { sql, type Kysely } from 'kysely';

/*
 * Signed webhooks (issue 38, item 4), frozen in time like every migration.
 *
 * webhooks: a tenant's subscriptions. `events` is a JSON array of event types (common/webhook-events.ts);
 * `secret_encrypted` the signing secret, encrypted as mailbox passwords are (never a schema field, so
 * never answered); `failures` the consecutive failed attempts, reset by a delivery that succeeds; past the
 * installation's limit the webhook is disabled (`disabled_at`, `disabled_reason`).
 * webhook_deliveries: the outbox and the delivery log in one. One row per webhook and event
 * (`event_id`, unique with the webhook: an event is delivered once per webhook however often it is
 * queued); a worker claims a row with FOR UPDATE SKIP LOCKED under a lease (`locked_until`), so two
 * instances never send the same row at once.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table webhooks (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      name text not null,
      url text not null,
      events jsonb not null default '[]',
      active boolean not null default true,
      secret_encrypted text not null default '',
      failures integer not null default 0,
      disabled_at timestamptz,
      disabled_reason text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhooks_tenant on webhooks (tenant_id, name)`.execute(db);
  await sql`
    create table webhook_deliveries (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      webhook_id integer not null references webhooks (id) on delete cascade,
      event_id text not null,
      event text not null,
      payload text not null default '{}',
      status text not null default 'queued' check (status in ('queued', 'sending', 'delivered', 'failed')),
      attempts integer not null default 0,
      status_code integer,
      duration_ms integer,
      error text,
      next_attempt_at timestamptz not null default now(),
      locked_until timestamptz,
      delivered_at timestamptz,
      created_at timestamptz not null default now(),
      unique (webhook_id, event_id)
    )`.execute(db);
  // What a worker looks for: rows not yet delivered or given up.
  await sql`create index webhook_deliveries_pending on webhook_deliveries (next_attempt_at, id)
    where status in ('queued', 'sending')`.execute(db);
  // The delivery log, newest first: the tenant's, and one webhook's (its tab).
  await sql`create index webhook_deliveries_log on webhook_deliveries (tenant_id, id desc)`.execute(db);
  await sql`create index webhook_deliveries_webhook on webhook_deliveries (tenant_id, webhook_id, id desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists webhook_deliveries`.execute(db);
  await sql`drop table if exists webhooks`.execute(db);
}
