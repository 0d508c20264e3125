import { sql, type Kysely } from 'kysely';

/*
 * Checklists on tickets (issue 37, item 4), frozen in time like every migration.
 *
 * checklist_items: a ticket's items in `position` order, ticked off with who and when (`done_by_name`
 * keeps the ticker's name at that moment: an operator or a client, whose record may go later). A
 * required item that is open keeps the ticket from closing (server/resources/checklist-items/).
 *
 * recurring_tickets: a schedule that makes a ticket from a template for a company, with a checklist
 * (server/resources/recurring-tickets/). `next_run_at` is when it is next due (null: inactive).
 * recurring_ticket_runs: one row per schedule and occurrence, unique, written in the transaction that
 * makes the ticket: however many instances look, an occurrence makes one ticket. tickets gets
 * `recurring_ticket_id`, the schedule that made it.
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

  await sql`
    create table recurring_tickets (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      name text not null,
      company_id integer not null references companies(id) on delete cascade,
      client_id integer references users(id) on delete set null,
      ticket_template_id integer not null references tickets(id) on delete restrict,
      frequency text not null check (frequency in ('weekly', 'monthly', 'quarterly', 'yearly')),
      interval integer not null default 1 check (interval between 1 and 100),
      day_of_month integer check (day_of_month between 1 and 31),
      nth integer check (nth in (1, 2, 3, 4, -1)),
      weekday integer check (weekday between 1 and 7),
      time_of_day text not null default '09:00',
      starts_on date not null,
      active boolean not null default true,
      next_run_at timestamptz,
      checklist jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  // The schema's default sort; the filterable foreign keys; the pass's look at what is due.
  await sql`create index recurring_tickets_name_index on recurring_tickets (tenant_id, name)`.execute(db);
  await sql`create index recurring_tickets_company_index on recurring_tickets (tenant_id, company_id)`.execute(
    db,
  );
  await sql`create index recurring_tickets_template_index on recurring_tickets (tenant_id, ticket_template_id)`.execute(
    db,
  );
  await sql`create index recurring_tickets_client_index on recurring_tickets (tenant_id, client_id)`.execute(
    db,
  );
  await sql`create index recurring_tickets_due_index on recurring_tickets (next_run_at) where active`.execute(
    db,
  );
  await sql`
    create table recurring_ticket_runs (
      recurring_ticket_id integer not null references recurring_tickets(id) on delete cascade,
      occurrence timestamptz not null,
      ticket_id integer references tickets(id) on delete set null,
      created_at timestamptz not null default now(),
      primary key (recurring_ticket_id, occurrence)
    )`.execute(db);
  await sql`alter table tickets add column recurring_ticket_id integer
    references recurring_tickets(id) on delete set null`.execute(db);
  await sql`create index tickets_recurring_index on tickets (tenant_id, recurring_ticket_id)
    where recurring_ticket_id is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table tickets drop column if exists recurring_ticket_id`.execute(db);
  await sql`drop table if exists recurring_ticket_runs`.execute(db);
  await sql`drop table if exists recurring_tickets`.execute(db);
  await sql`drop table if exists checklist_items`.execute(db);
}
