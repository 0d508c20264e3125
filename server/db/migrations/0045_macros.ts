import { sql, type Kysely } from 'kysely';

/*
 * Macros (issue 37, item 3), frozen in time like every migration: bundles of actions an operator
 * applies to tickets in one click. `actions` holds the automation's action language as JSON (checked
 * when written). A team macro (personal false) is for every operator, or for one role's; a personal
 * one is its owner's alone. `shortcut` is the digit pressed after m on a ticket: one per team macro,
 * and one per owner among personal ones (the indexes below), so a digit names one macro.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table macros (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      name text not null,
      personal boolean not null default false,
      role_id integer references roles(id) on delete set null,
      shortcut integer check (shortcut between 1 and 9),
      actions jsonb not null,
      owner_id integer references users(id) on delete cascade,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  // The default sort (by name), and an operator's personal ones.
  await sql`create index macros_name_index on macros (tenant_id, name, id)`.execute(db);
  await sql`create index macros_owner_index on macros (tenant_id, owner_id) where personal`.execute(db);
  // The list's filter on the role, and the macros offered to a role.
  await sql`create index macros_role_index on macros (tenant_id, role_id)`.execute(db);
  await sql`create unique index macros_team_shortcut_index on macros (tenant_id, shortcut, coalesce(role_id, 0))
    where not personal and shortcut is not null`.execute(db);
  await sql`create unique index macros_personal_shortcut_index on macros (tenant_id, shortcut, owner_id)
    where personal and shortcut is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists macros`.execute(db);
}
