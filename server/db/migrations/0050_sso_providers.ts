import { sql, type Kysely } from 'kysely';

/*
 * OpenID Connect single sign-on (issue 38, item 2), frozen in time like every migration.
 *
 * sso_providers: a tenant's OpenID providers (Microsoft Entra ID, Google, any issuer). The client secret is
 * kept encrypted (AES-256-GCM, server/mail/inbound/secret.ts), never as text. `audience` says whose login
 * page offers it; `email_domains` which addresses it may sign in (comma separated, lower case);
 * `create_clients` whether an unknown address of an allowed domain may become a client.
 *
 * sso_flows: one row per sign-in under way, between the start (the redirect to the provider) and the
 * callback, which deletes it (single use). `state` is the key the provider hands back; `binding_hash` the
 * SHA-256 of the cookie the starting browser holds, so a callback link carried to another browser opens
 * nothing. The PKCE verifier and the nonce never leave the server.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table sso_providers (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      name text not null,
      issuer text not null,
      client_id text not null,
      client_secret_encrypted text,
      audience text not null default 'both' check (audience in ('operators', 'clients', 'both')),
      email_domains text not null default '',
      create_clients boolean not null default false,
      active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index sso_providers_tenant_name_index on sso_providers (tenant_id, name, id)`.execute(db);

  await sql`
    create table sso_flows (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      provider_id integer not null references sso_providers(id) on delete cascade,
      state text not null unique,
      nonce text not null,
      code_verifier text not null,
      binding_hash text not null,
      app text not null check (app in ('portal', 'backoffice')),
      redirect_uri text not null,
      expires_at timestamptz not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index sso_flows_expires_index on sso_flows (expires_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists sso_flows`.execute(db);
  await sql`drop table if exists sso_providers`.execute(db);
}
