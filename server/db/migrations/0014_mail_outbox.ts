import { sql, type Kysely } from 'kysely';

/*
 * The mail outbox (issue 15, item 4), frozen in time like every migration.
 *
 * Every outgoing mail is a row, written in the same transaction as what caused it, so a rolled-back
 * message leaves no mail and a committed one never loses its mail to a crash. Whichever instance claims
 * a due row (SELECT … FOR UPDATE SKIP LOCKED) sends it; `locked_until` is its lease, so a row claimed by
 * an instance that died is taken again. A refused send is tried again at `next_attempt_at`, until it
 * is given up (`failed`).
 *
 * mail holds the message without attachment bytes: attachments are file-store keys read when it is
 * sent. Once sent or given up, the body is dropped (it may hold a sign-in or quote link); to and
 * subject stay for the operators' list. source/source_id name the record the mail is about, so its
 * resource can record the outcome (a message's recipients or its mail_error); context is that
 * resource's own note for it.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table mail_outbox (
      id serial primary key,
      tenant_id integer references tenants(id) on delete cascade,
      recipients text not null,
      subject text not null,
      mail jsonb,
      source text,
      source_id integer,
      context jsonb,
      status text not null default 'queued'
        check (status in ('queued', 'sending', 'sent', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      locked_until timestamptz,
      last_error text,
      created_at timestamptz not null default now(),
      sent_at timestamptz,
      failed_at timestamptz
    )`.execute(db);
  // What a sender looks for: rows not yet sent or given up.
  await sql`create index mail_outbox_pending_index on mail_outbox (next_attempt_at, id)
    where status in ('queued', 'sending')`.execute(db);
  // The operators' list of mail that could not be sent.
  await sql`create index mail_outbox_failed_index on mail_outbox (tenant_id, id desc)
    where status = 'failed'`.execute(db);
  // The operator-visible outcome of a message's mail that was given up.
  await sql`alter table messages add column mail_error text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table messages drop column if exists mail_error`.execute(db);
  await sql`drop table if exists mail_outbox`.execute(db);
}
