import { sql, type Kysely } from 'kysely';

/*
 * Who sent a mail, and whether it may join a ticket (issue 31, items 2 and 3), frozen in time like every
 * migration.
 *
 * messages.sender_check: for a message made from an incoming mail, whether its sender was proven
 * (server/mail/inbound/authenticate.ts): 'verified' (an aligned DKIM signature, or the tenant's own
 * receiving server's Authentication-Results), 'unverified' (held: not shown to the client, not the
 * client's message, until an operator confirms it), then 'confirmed' or 'rejected' by an operator. Null
 * for every other message. messages.sender_check_note: why, in the words of the check (for operators).
 *
 * mailboxes.authserv_id: the authserv-id (RFC 8601) the tenant's own receiving server writes in its
 * Authentication-Results header; only that server's header is believed. Null: none is.
 *
 * The calls `confirm-sender` and `reject-sender` on messages: granted to the roles that may edit
 * messages (the all-powerful roles get them at every start anyway).
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table messages add column sender_check text
    check (sender_check in ('verified', 'unverified', 'confirmed', 'rejected'))`.execute(db);
  await sql`alter table messages add column sender_check_note text`.execute(db);
  // The back office's "held mail" look-ups: few rows, so a partial index.
  await sql`create index messages_sender_unverified_index on messages (tenant_id, id)
    where sender_check = 'unverified'`.execute(db);
  await sql`alter table mailboxes add column authserv_id text`.execute(db);

  for (const action of ['confirm-sender', 'reject-sender'])
    await sql`insert into permissions (name) values (${`tenant.messages.${action}`})
      on conflict do nothing`.execute(db);
  await sql`
    insert into permission_role (role_id, permission_id)
    select pr.role_id, p.id from permission_role pr
    join permissions edits on edits.id = pr.permission_id and edits.name = 'tenant.messages.update'
    cross join permissions p
    where p.name in ('tenant.messages.confirm-sender', 'tenant.messages.reject-sender')
    on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from permissions where name in
    ('tenant.messages.confirm-sender', 'tenant.messages.reject-sender')`.execute(db);
  await sql`alter table mailboxes drop column if exists authserv_id`.execute(db);
  await sql`drop index if exists messages_sender_unverified_index`.execute(db);
  await sql`alter table messages drop column if exists sender_check_note`.execute(db);
  await sql`alter table messages drop column if exists sender_check`.execute(db);
}
