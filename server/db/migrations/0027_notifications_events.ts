import { sql, type Kysely } from 'kysely';

/*
 * Notifications and live screens (issue 19, items 3 and 4), frozen in time like every migration.
 *
 * notifications: what an operator is told (a client's reply, an @mention, a ticket assigned to them, a
 * deadline an hour away or passed), written in the transaction of its cause by server/live/notify.ts.
 * `dedupe_key` makes a notification that several instances may make at once (the deadline check) one
 * row: unique per tenant, user and key (`deadline_soon:<ticket>:<deadline>`); null for the others.
 *
 * notification_preferences: per operator and kind, whether it is mailed too (in the app always). No
 * row: not mailed.
 *
 * live_events: what the streams of GET /api/events carry (a ticket created or changed, a message
 * created, a user's notification count), one row per change, written in the change's transaction;
 * its id is the SSE event id a reconnecting browser sends back as Last-Event-ID, so what was missed is
 * replayed from here. The payload names records only; each stream reads them with its own scope.
 * Rows older than a day are removed by the periodic check.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table notifications (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      kind text not null,
      ticket_id integer references tickets(id) on delete cascade,
      message_id integer references messages(id) on delete set null,
      actor_id integer references users(id) on delete set null,
      text text,
      dedupe_key text,
      read_at timestamptz,
      created_at timestamptz not null default now(),
      unique (tenant_id, user_id, dedupe_key)
    )`.execute(db);
  // The bell: a user's newest notifications and their unread count; the default sort; by ticket.
  await sql`create index notifications_user_index on notifications (tenant_id, user_id, id desc)`.execute(db);
  await sql`create index notifications_id_index on notifications (tenant_id, id desc)`.execute(db);
  await sql`create index notifications_unread_index on notifications (tenant_id, user_id)
    where read_at is null`.execute(db);
  await sql`create index notifications_ticket_index on notifications (tenant_id, ticket_id)`.execute(db);
  await sql`
    create table notification_preferences (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      kind text not null,
      email boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (tenant_id, user_id, kind)
    )`.execute(db);
  await sql`create index notification_preferences_kind_index on notification_preferences (tenant_id, kind, id)`.execute(
    db,
  );
  await sql`
    create table live_events (
      id bigserial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      kind text not null,
      record_id bigint,
      user_id integer,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index live_events_tenant_index on live_events (tenant_id, id)`.execute(db);
  await sql`create index live_events_created_index on live_events (created_at)`.execute(db);
  // The deadline check: open tickets with a deadline and an operator.
  await sql`create index if not exists tickets_deadline_operator_index on tickets (deadline)
    where deadline is not null and operator_id is not null and resolved_at is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists tickets_deadline_operator_index`.execute(db);
  await sql`drop table if exists live_events`.execute(db);
  await sql`drop table if exists notification_preferences`.execute(db);
  await sql`drop table if exists notifications`.execute(db);
}
