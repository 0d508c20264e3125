import { sql, type Kysely } from 'kysely';

/*
 * Two-factor sign-in (issue 38, item 1), frozen in time like every migration.
 *
 * - `two_factor`: one row per user who started enrolling. The TOTP secret is encrypted at rest
 *   (server/auth/two-factor/secret.ts); `enrolled_at` null means started, not yet confirmed with a first
 *   code. `last_step` is the newest 30-second step a code was accepted for: a code is taken only by an
 *   UPDATE that raises it, so no code counts twice, whichever instance sees it.
 * - `two_factor_recovery_codes`: ten per enrolment, SHA-256 hashed, used once (`used_at`).
 * - `two_factor_challenges`: the short-lived, single-use token a password login hands out when a
 *   second step is due; hashed, bound to its tenant and user.
 * - `roles.requires_two_factor`: second line can require two-factor for a role.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table two_factor (
      user_id integer primary key references users (id) on delete cascade,
      tenant_id integer not null references tenants (id) on delete cascade,
      secret_encrypted text not null,
      last_step bigint,
      enrolled_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table two_factor_recovery_codes (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      user_id integer not null references users (id) on delete cascade,
      code_hash text not null,
      used_at timestamptz
    )`.execute(db);
  await sql`create index two_factor_recovery_codes_user on two_factor_recovery_codes (user_id)`.execute(db);
  await sql`
    create table two_factor_challenges (
      id serial primary key,
      tenant_id integer not null references tenants (id) on delete cascade,
      user_id integer not null references users (id) on delete cascade,
      token_hash text not null unique,
      expires_at timestamptz not null,
      failures integer not null default 0,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index two_factor_challenges_expiry on two_factor_challenges (expires_at)`.execute(db);
  await sql`alter table roles add column requires_two_factor boolean not null default false`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table roles drop column if exists requires_two_factor`.execute(db);
  await sql`drop table if exists two_factor_challenges`.execute(db);
  await sql`drop table if exists two_factor_recovery_codes`.execute(db);
  await sql`drop table if exists two_factor`.execute(db);
}
