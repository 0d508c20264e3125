import { sql, type Kysely } from 'kysely';

/*
 * Failed logins and password reset requests, counted in the database so that every instance behind a
 * balancer sees the same numbers (three instances must not allow three times the failures). One row per
 * counted key holds the times (ms since the epoch, oldest first) of its newest failures inside the
 * window, at most `keep` of them; a row whose newest failure left the window means nothing and is
 * swept by later attempts (expires_at). Address rows use tenant 0: an address's failures count across
 * tenants, as they did in memory.
 *
 * auth_attempt_begin checks and counts one attempt in one statement, with its rows locked, so parallel
 * attempts on the same keys (on any instance) queue instead of all passing the check. The rules are
 * the caller's (server/auth/shared-attempts.ts): per key a limit, how many times to keep, and either a
 * lockout (delay_first = 0: refused until the oldest counted failure leaves the window) or a growing
 * delay after the last failure (delay_first * 2^(failures - limit), at most delay_max).
 *
 * And the other half of sharing auth across instances: every change to a user's sessions or account
 * notifies channel auth_user_changed with '<tenant>:<user>' (server/auth/session-events.ts makes each
 * instance forget that user's cached contexts). Triggers, so no code path that revokes a refresh token
 * or changes a user can forget to tell; a notification is sent at commit, and not at all on rollback.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table auth_failures (
      tenant_id integer not null,
      kind text not null,
      key text not null,
      failed_at bigint[] not null default '{}',
      expires_at bigint not null,
      primary key (tenant_id, kind, key)
    )`.execute(db);
  await sql`create index auth_failures_expires_at on auth_failures (expires_at)`.execute(db);
  await sql`
    create function auth_attempt_begin(
      p_tenants integer[], p_kind text, p_keys text[], p_limits integer[], p_keep integer[],
      p_delay_first bigint[], p_delay_max bigint[], p_now bigint, p_window bigint
    ) returns bigint language plpgsql as $$
    declare
      i integer;
      recent bigint[];
      n integer;
      wait bigint := 0;
    begin
      -- Every row of the attempt, created if missing, locked in one order (no deadlock between two
      -- attempts sharing keys): a parallel attempt waits here until this one has counted.
      insert into auth_failures (tenant_id, kind, key, expires_at)
      select u.t, p_kind, u.k, p_now + p_window from unnest(p_tenants, p_keys) as u(t, k) order by u.t, u.k
      on conflict (tenant_id, kind, key) do update set expires_at = auth_failures.expires_at;

      for i in 1 .. cardinality(p_keys) loop
        select coalesce(array_agg(t order by t), '{}') into recent
        from auth_failures f, unnest(f.failed_at) t
        where f.tenant_id = p_tenants[i] and f.kind = p_kind and f.key = p_keys[i] and t > p_now - p_window;
        n := cardinality(recent);
        if n >= p_limits[i] then
          if p_delay_first[i] = 0 then
            -- The oldest failure that still counts has to leave the window before one more fits.
            wait := greatest(wait, recent[n - p_limits[i] + 1] + p_window - p_now);
          else
            wait := greatest(wait,
              recent[n] + least(p_delay_max[i], (p_delay_first[i] * 2 ^ (n - p_limits[i]))::bigint) - p_now);
          end if;
        end if;
      end loop;

      if wait > 0 then
        -- A refused attempt counts nothing and leaves nothing: the rows it created empty go again.
        delete from auth_failures f using unnest(p_tenants, p_keys) as u(t, k)
        where f.tenant_id = u.t and f.kind = p_kind and f.key = u.k and f.failed_at = '{}';
        return wait;
      end if;

      for i in 1 .. cardinality(p_keys) loop
        update auth_failures f set
          failed_at = (
            select coalesce(array_agg(s.t order by s.t), '{}') from (
              select t from unnest(f.failed_at || p_now) t where t > p_now - p_window order by t desc limit p_keep[i]
            ) s),
          expires_at = p_now + p_window
        where f.tenant_id = p_tenants[i] and f.kind = p_kind and f.key = p_keys[i];
      end loop;

      -- Sweep on write: each counted attempt removes up to 20 rows that mean nothing any more, so the
      -- table holds about the keys that failed within the window.
      delete from auth_failures where ctid in (
        select ctid from auth_failures where expires_at <= p_now limit 20 for update skip locked);
      return 0;
    end
    $$`.execute(db);
  await sql`
    create function notify_auth_token_revoked() returns trigger language plpgsql as $$
    begin
      perform pg_notify('auth_user_changed', new.tenant_id || ':' || new.user_id);
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger refresh_tokens_notify_revoked after update of revoked_at on refresh_tokens
    for each row when (old.revoked_at is null and new.revoked_at is not null)
    execute function notify_auth_token_revoked()`.execute(db);
  await sql`
    create function notify_auth_user_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('auth_user_changed', old.tenant_id || ':' || old.id);
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger users_notify_changed after update or delete on users
    for each row execute function notify_auth_user_changed()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists users_notify_changed on users`.execute(db);
  await sql`drop function if exists notify_auth_user_changed()`.execute(db);
  await sql`drop trigger if exists refresh_tokens_notify_revoked on refresh_tokens`.execute(db);
  await sql`drop function if exists notify_auth_token_revoked()`.execute(db);
  await sql`drop function if exists auth_attempt_begin(integer[], text, text[], integer[], integer[], bigint[], bigint[], bigint, bigint)`.execute(
    db,
  );
  await sql`drop table if exists auth_failures`.execute(db);
}
