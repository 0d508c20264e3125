import { sql, type Kysely } from 'kysely';

/**
 * One-time password reset links. Only the sha256 of a token is kept (as for refresh tokens); a token
 * is single use (`used_at`) and expires; a new request invalidates the user's earlier open ones.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table password_resets (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      token_hash text not null unique,
      expires_at timestamptz not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index password_resets_tenant_id_user_id_index on password_resets (tenant_id, user_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists password_resets`.execute(db);
}
