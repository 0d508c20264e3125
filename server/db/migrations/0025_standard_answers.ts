import { sql, type Kysely } from 'kysely';

/*
 * Standard answers (issue 18, item 6), frozen in time like every migration: a tenant's reusable reply
 * texts (title, HTML body, an optional ticket category) that operators insert into the message editor.
 *
 * Who may use them: every existing role that may write messages (tenant.messages.store) gets
 * tenant.standard-answers.index and .show; roles that grant everything get every action at each start
 * (server/db/seed/permissions.ts). Managing them (store, update, destroy) is a setting, granted in the
 * roles screen. Clients never see them: the schema has no x-portal.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table standard_answers (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      title text not null,
      body text not null,
      category_id integer references categories(id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  // The list's default sort and the picker's search (tenant first, as every index).
  await sql`create index standard_answers_title_index on standard_answers (tenant_id, title, id)`.execute(db);
  await sql`create index standard_answers_category_index on standard_answers (tenant_id, category_id)`.execute(
    db,
  );
  await grantToMessageWriters(db);
}

/** Reading standard answers for every role that may write messages (idempotent). */
export async function grantToMessageWriters(db: Kysely<any>): Promise<void> {
  await sql`insert into permissions (name)
    values ('tenant.standard-answers.index'), ('tenant.standard-answers.show')
    on conflict (name) do nothing`.execute(db);
  await sql`
    insert into permission_role (role_id, permission_id)
    select pr.role_id, p.id from permission_role pr
    join permissions writes on writes.id = pr.permission_id and writes.name = 'tenant.messages.store'
    cross join permissions p where p.name in ('tenant.standard-answers.index', 'tenant.standard-answers.show')
    on conflict do nothing`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from permissions where name like 'tenant.standard-answers.%'`.execute(db);
  await sql`drop table if exists standard_answers`.execute(db);
}
