import { sql, type Kysely } from 'kysely';

/*
 * A ticket's history of changes (issue 18, item 5), frozen in time like every migration.
 *
 * ticket_changes: one row per changed field of a ticket (who, when, field, from, to), written in the
 * change's own transaction by server/resources/tickets/history.ts. from_value/to_value hold what the
 * column held (an id, a timestamp); from_label/to_label the name it had at that moment, so a change
 * still reads when the status or operator it names has since been deleted. user_id is kept as the
 * actor's id only while the user exists. The rows belong to the ticket: deleted with it, moved with its
 * messages when it is merged (server/resources/merge.ts follows foreign keys).
 *
 * messages.edited_at: when a message's text or subject was last edited, apart from updated_at, which
 * the mail outbox also moves when it records a message's recipients.
 *
 * The history is readable by whoever may read tickets: existing roles that show tickets get
 * tenant.ticket-changes.index (roles that grant everything get it at every start anyway).
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table ticket_changes (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      ticket_id integer not null references tickets(id) on delete cascade,
      user_id integer references users(id) on delete set null,
      field text not null,
      from_value text,
      to_value text,
      from_label text,
      to_label text,
      created_at timestamptz not null default now()
    )`.execute(db);
  // The history tab: a ticket's changes, newest first (tenant first, as every foreign key's index).
  await sql`create index ticket_changes_ticket_index on ticket_changes (tenant_id, ticket_id, created_at desc, id desc)`.execute(
    db,
  );
  // The list of all changes (its default sort), and the changes of one user.
  await sql`create index ticket_changes_created_index on ticket_changes (tenant_id, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index ticket_changes_user_index on ticket_changes (tenant_id, user_id)`.execute(db);
  await sql`alter table messages add column edited_at timestamptz`.execute(db);
  await sql`insert into permissions (name) values ('tenant.ticket-changes.index')
    on conflict (name) do nothing`.execute(db);
  await sql`
    insert into permission_role (role_id, permission_id)
    select pr.role_id, p.id from permission_role pr
    join permissions shown on shown.id = pr.permission_id and shown.name = 'tenant.tickets.show'
    cross join permissions p where p.name = 'tenant.ticket-changes.index'
    on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from permissions where name = 'tenant.ticket-changes.index'`.execute(db);
  await sql`alter table messages drop column if exists edited_at`.execute(db);
  await sql`drop table if exists ticket_changes`.execute(db);
}
