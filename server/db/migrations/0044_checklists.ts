import { sql, type Kysely } from 'kysely';

/*
 * Checklists on tickets (issue 37, item 4), frozen in time like every migration.
 *
 * checklist_items: a ticket's items in `position` order, ticked off with who and when (`done_by_name`
 * keeps the ticker's name at that moment: an operator or a client, whose record may go later). A
 * required item that is open keeps the ticket from closing (server/resources/checklist-items/).
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table checklist_items (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      ticket_id integer not null references tickets(id) on delete cascade,
      position integer not null default 0 check (position >= 0),
      text text not null,
      required boolean not null default false,
      visible_to_client boolean not null default false,
      done boolean not null default false,
      done_at timestamptz,
      done_by integer references users(id) on delete set null,
      done_by_name text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (done = (done_at is not null))
    )`.execute(db);
  // A ticket's list in its order, and the closing check's count of its open required items.
  await sql`create index checklist_items_ticket_index on checklist_items (tenant_id, ticket_id, position, id)`.execute(
    db,
  );
  // The schema's default sort, for a list over all tickets.
  await sql`create index checklist_items_position_index on checklist_items (tenant_id, position, id)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists checklist_items`.execute(db);
}
