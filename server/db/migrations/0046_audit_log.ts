import { sql, type Kysely } from 'kysely';

/*
 * The audit log (issue 38, item 5), frozen in time like every migration: who did what, when, from which
 * address and with which token, per tenant. Append-only: a trigger refuses every update, delete and
 * truncate, save the retention sweep's deletes (server/audit/retention.ts), which set the
 * transaction-local `audit_log.sweep` first. Neither user_id nor tenant_id is a foreign key: a user
 * deleted (or a tenant) must not change or remove what the log says about them; `actor` keeps the
 * address as it was.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table audit_log (
      id serial primary key,
      tenant_id integer not null,
      at timestamptz not null default now(),
      user_id integer,
      actor text,
      ip text,
      token_id integer,
      action text not null,
      resource text,
      record_id integer,
      changes jsonb
    )`.execute(db);
  // The list's default sort and its filters by user and by action, each within the tenant.
  await sql`create index audit_log_tenant_at on audit_log (tenant_id, at desc, id desc)`.execute(db);
  await sql`create index audit_log_tenant_user on audit_log (tenant_id, user_id)`.execute(db);
  await sql`create index audit_log_tenant_action on audit_log (tenant_id, action)`.execute(db);
  await sql`
    create function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' and current_setting('audit_log.sweep', true) = 'on' then
        return old;
      end if;
      raise exception 'audit_log is append-only: % refused', tg_op using errcode = '42501';
    end
    $$`.execute(db);
  await sql`
    create trigger audit_log_append_only before update or delete on audit_log
    for each row execute function audit_log_append_only()`.execute(db);
  await sql`
    create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function audit_log_append_only()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists audit_log`.execute(db);
  await sql`drop function if exists audit_log_append_only()`.execute(db);
}
