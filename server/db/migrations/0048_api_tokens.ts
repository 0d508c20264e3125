import { sql, type Kysely } from 'kysely';

/*
 * API tokens and service accounts (issue 38, item 3), frozen in time like every migration.
 *
 * A token is stored as the SHA-256 of its secret (the secret is 32 random bytes: full entropy, so a
 * plain hash is enough and lookups go by it); `prefix` is the start of the token, shown so a person can
 * tell tokens apart, never enough to use one. Revoking sets `revoked_at`: the row stays, for the audit
 * log. `token_hash` is written in the transaction that creates the row (server/resources/api-tokens),
 * so it is nullable only for that moment.
 *
 * A service account is an operator user that is not a person (`users.service_account`): it holds
 * tokens and cannot sign in with a password.
 *
 * Revoking a token (or deleting it with its owner) notifies auth_user_changed with the owner, as a
 * logout does (migration 0012): every instance forgets the owner's cached contexts, the token's with
 * them, so a revoked token is refused everywhere at once. The last-use columns change without a
 * notification: they are written at most once a minute per token and change no access.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column service_account boolean not null default false`.execute(db);
  await sql`
    create table api_tokens (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      name text not null,
      owner_id integer not null references users(id) on delete cascade,
      scopes jsonb not null default '[]',
      expires_at timestamptz not null,
      last_used_at timestamptz,
      last_used_ip text,
      revoked_at timestamptz,
      prefix text not null default '',
      token_hash text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index api_tokens_hash_index on api_tokens (token_hash)`.execute(db);
  // The list's default sort (newest first) and an owner's own tokens.
  await sql`create index api_tokens_created_index on api_tokens (tenant_id, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index api_tokens_owner_index on api_tokens (tenant_id, owner_id)`.execute(db);
  await sql`
    create function notify_api_token_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('auth_user_changed', old.tenant_id || ':' || old.owner_id);
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger api_tokens_notify_revoked after update of revoked_at, expires_at, scopes, owner_id on api_tokens
    for each row execute function notify_api_token_changed()`.execute(db);
  await sql`
    create trigger api_tokens_notify_deleted after delete on api_tokens
    for each row execute function notify_api_token_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists api_tokens`.execute(db);
  await sql`drop function if exists notify_api_token_changed()`.execute(db);
  await sql`alter table users drop column if exists service_account`.execute(db);
}
