import { sql, type Kysely } from 'kysely';

/*
 * Company roles in the portal (issue 39, item 1), frozen in time like every migration.
 *
 * company_roles: a tenant's portal roles, data the provider edits. Per role, the portal resources a client
 * sees company-wide (`company_resources`) and those it sees only where they are its own or shared with it
 * (`own_resources`, what "own" means is the resource schema's x-portal.own); `grants_all` sees every
 * portal resource company-wide (the role that keeps today's behaviour, and stays so when resources are
 * added); `create_on_behalf` may create a ticket for a colleague; `manage_access` may set colleagues'
 * roles within the company. `is_default`: the role a new company membership gets (one per tenant).
 *
 * company_user.company_role_id: the client's role in that company. Every existing membership becomes a
 * company admin, so an installation's clients keep seeing what they saw. Null (a membership written by a
 * path that names no role) reads as the tenant's default role.
 *
 * ticket_shares: a ticket shared with a named colleague, who then sees it as if it were their own.
 * `company_id` is the ticket's (written by the share's hook), so a share is scoped by company as the
 * ticket is, without a scope that leads back to the ticket (and from it to its shares again).
 */

const ROLES = [
  {
    name: 'Lid',
    name_en: 'Member',
    name_de: 'Mitglied',
    grants_all: false,
    company_resources: ['companies'],
    own_resources: ['tickets'],
    create_on_behalf: false,
    manage_access: false,
    is_default: true,
  },
  {
    name: 'Bedrijfsbeheerder',
    name_en: 'Company admin',
    name_de: 'Firmenadministrator',
    grants_all: true,
    company_resources: [],
    own_resources: [],
    create_on_behalf: true,
    manage_access: true,
    is_default: false,
  },
  {
    name: 'Financiën',
    name_en: 'Finance',
    name_de: 'Finanzen',
    grants_all: false,
    // Contracts too: finance is told of a contract's low balance and buys more hours on its page.
    company_resources: ['companies', 'contracts', 'invoices', 'quotes', 'subscriptions'],
    own_resources: ['tickets'],
    create_on_behalf: false,
    manage_access: false,
    is_default: false,
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table company_roles (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      name text not null,
      name_en text,
      name_de text,
      grants_all boolean not null default false,
      company_resources jsonb not null default '[]',
      own_resources jsonb not null default '[]',
      create_on_behalf boolean not null default false,
      manage_access boolean not null default false,
      is_default boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (tenant_id, name)
    )`.execute(db);
  await sql`create unique index company_roles_one_default on company_roles (tenant_id) where is_default`.execute(
    db,
  );
  for (const role of ROLES) {
    await sql`
      insert into company_roles (tenant_id, name, name_en, name_de, grants_all, company_resources,
        own_resources, create_on_behalf, manage_access, is_default)
      select id, ${role.name}, ${role.name_en}, ${role.name_de}, ${role.grants_all},
        ${JSON.stringify(role.company_resources)}::jsonb, ${JSON.stringify(role.own_resources)}::jsonb,
        ${role.create_on_behalf}, ${role.manage_access}, ${role.is_default}
      from tenants`.execute(db);
  }

  await sql`alter table company_user add column company_role_id integer references company_roles(id)`.execute(
    db,
  );
  await sql`
    update company_user cu set company_role_id = r.id
    from company_roles r where r.tenant_id = cu.tenant_id and r.grants_all and r.name = 'Bedrijfsbeheerder'`.execute(
    db,
  );
  // Led by the tenant, as every filterable key's index (the role filter of the memberships list).
  await sql`create index company_user_company_role_id_index on company_user (tenant_id, company_role_id)`.execute(
    db,
  );

  // A role change is heard at once by every instance's context cache (session-events.ts), as a user's
  // own changes are (migration 0012): the membership's client, or every client of the tenant whose
  // memberships a changed role (or a new default) may stand behind.
  await sql`
    create function notify_company_user_changed() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then perform pg_notify('auth_user_changed', old.tenant_id || ':' || old.user_id); end if;
      if tg_op <> 'DELETE' then perform pg_notify('auth_user_changed', new.tenant_id || ':' || new.user_id); end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger company_user_notify after insert or update or delete on company_user
    for each row execute function notify_company_user_changed()`.execute(db);
  await sql`
    create function notify_company_role_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('auth_user_changed', cu.tenant_id || ':' || cu.user_id)
        from (select distinct tenant_id, user_id from company_user where tenant_id = old.tenant_id) cu;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger company_roles_notify after update or delete on company_roles
    for each row execute function notify_company_role_changed()`.execute(db);

  await sql`
    create table ticket_shares (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      ticket_id integer not null references tickets(id) on delete cascade,
      company_id integer not null references companies(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      created_by integer references users(id) on delete set null,
      created_at timestamptz not null default now(),
      unique (ticket_id, user_id)
    )`.execute(db);
  await sql`create index ticket_shares_user_index on ticket_shares (tenant_id, user_id, ticket_id)`.execute(
    db,
  );
  await sql`create index ticket_shares_company_index on ticket_shares (tenant_id, company_id, ticket_id)`.execute(
    db,
  );
  // The list's default sort and the ticket filter (a ticket's shares), each led by the tenant.
  await sql`create index ticket_shares_tenant_id_index on ticket_shares (tenant_id, id)`.execute(db);
  await sql`create index ticket_shares_ticket_index on ticket_shares (tenant_id, ticket_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists ticket_shares`.execute(db);
  await sql`drop trigger if exists company_user_notify on company_user`.execute(db);
  await sql`drop function if exists notify_company_user_changed()`.execute(db);
  await sql`alter table company_user drop column if exists company_role_id`.execute(db);
  await sql`drop table if exists company_roles`.execute(db);
  await sql`drop function if exists notify_company_role_changed()`.execute(db);
}
