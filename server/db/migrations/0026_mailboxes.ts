import { sql, type Kysely } from 'kysely';

/*
 * Incoming e-mail (issue 19, items 1 and 2), frozen in time like every migration.
 *
 * mailboxes: a tenant's IMAP mailboxes. The password is kept encrypted (AES-256-GCM, server/mail/inbound/
 * secret.ts), never as text. `reply_to` is the address outgoing mail names as Reply-To. The fetcher keeps
 * its place (`uid_validity`, `last_uid`), its next look (`next_fetch_at`) and its failures (`failures`,
 * `failing_since`, `last_error`: shown to operators, retried with a growing delay).
 *
 * mail_incoming: every mail taken from a mailbox, one row per mailbox and Message-ID (unique): written in
 * the transaction that writes its ticket or message, so a mail two instances fetch at once is kept once.
 * `status` is 'ticket' between a new ticket and its first message, 'done' after, 'rejected' for a mail that
 * could not be read (kept so it is not fetched again and again).
 *
 * messages.mail_message_id: the Message-ID of the mail that carried the message, sent or received: a
 * reply's In-Reply-To/References find the thread through it. mail_outbox.message_id: the Message-ID of
 * every mail sent, so a mail of ours that comes back (a bounce, an auto-reply quoting it) is known.
 *
 * The 'unknown sender' queue is a ticket group per tenant, named in tenant_configs
 * (`unknown_sender_ticket_group_id`); tenants made later get it when their first such mail arrives.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table mailboxes (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      name text not null,
      host text not null,
      port integer not null default 993,
      tls boolean not null default true,
      username text not null,
      password_encrypted text,
      active boolean not null default true,
      reply_to text,
      uid_validity text,
      last_uid bigint not null default 0,
      next_fetch_at timestamptz not null default now(),
      last_fetched_at timestamptz,
      failures integer not null default 0,
      failing_since timestamptz,
      last_error text,
      status text not null generated always as (
        case when not active then 'inactive' when failing_since is not null then 'failing' else 'ok' end
      ) stored,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index mailboxes_tenant_name_index on mailboxes (tenant_id, name, id)`.execute(db);
  await sql`create index mailboxes_due_index on mailboxes (next_fetch_at) where active`.execute(db);

  await sql`
    create table mail_incoming (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      mailbox_id integer not null references mailboxes(id) on delete cascade,
      message_key text not null,
      uid bigint,
      sender text,
      subject text,
      status text not null default 'done' check (status in ('ticket', 'done', 'rejected')),
      auto_reply boolean not null default false,
      ticket_id integer references tickets(id) on delete set null,
      message_id integer references messages(id) on delete set null,
      error text,
      created_at timestamptz not null default now(),
      unique (mailbox_id, message_key)
    )`.execute(db);

  await sql`alter table messages add column mail_message_id text`.execute(db);
  await sql`create index messages_mail_message_id_index on messages (tenant_id, mail_message_id)
    where mail_message_id is not null`.execute(db);
  await sql`alter table mail_outbox add column message_id text`.execute(db);
  await sql`create index mail_outbox_message_id_index on mail_outbox (message_id)
    where message_id is not null`.execute(db);

  // Operators see the mailboxes (and which one is failing); only the all-powerful roles manage them.
  for (const action of ['index', 'show', 'store', 'update', 'destroy'])
    await sql`insert into permissions (name) values (${`tenant.mailboxes.${action}`})
      on conflict do nothing`.execute(db);
  await sql`
    insert into permission_role (role_id, permission_id)
    select pr.role_id, p.id from permission_role pr
    join permissions shown on shown.id = pr.permission_id and shown.name = 'tenant.tickets.show'
    cross join permissions p where p.name in ('tenant.mailboxes.index', 'tenant.mailboxes.show')
    on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from permissions where name like 'tenant.mailboxes.%'`.execute(db);
  await sql`alter table mail_outbox drop column if exists message_id`.execute(db);
  await sql`alter table messages drop column if exists mail_message_id`.execute(db);
  await sql`drop table if exists mail_incoming`.execute(db);
  await sql`drop table if exists mailboxes`.execute(db);
}
