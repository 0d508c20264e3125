import { sql, type Kysely } from 'kysely';

/*
 * The mail outbox becomes a tenant's list (issue 15, item 4: failed mail is visible to operators).
 *
 * Every row now belongs to a tenant: until now the export-ready notice was queued without one, so it
 * could be shown to no tenant's operators. Such rows get the tenant of the user they were sent to
 * (the notice goes to the user who asked for the export), when exactly one tenant has a user with that
 * address; the few left (an address in two tenants, a user since removed) are export notices whose
 * files the exports page still shows, and are removed, so that `tenant_id` can be required.
 *
 * `last_attempt_at` is when a sender last tried the mail: what the operators' list shows beside the
 * last error. The list shows the mail not sent (queued, being sent, given up), newest first. From now
 * on a given-up row keeps its body, so an operator can queue it again; rows given up before this
 * migration have none and cannot be.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    update mail_outbox o set tenant_id = u.tenant_id
    from (
      select lower(email) as email, min(tenant_id) as tenant_id
      from users where email is not null
      group by lower(email)
      having count(distinct tenant_id) = 1
    ) u
    where o.tenant_id is null and lower(o.recipients) = u.email`.execute(db);
  await sql`delete from mail_outbox where tenant_id is null`.execute(db);
  await sql`alter table mail_outbox alter column tenant_id set not null`.execute(db);
  await sql`alter table mail_outbox add column last_attempt_at timestamptz`.execute(db);
  await sql`create index mail_outbox_unsent_index on mail_outbox (tenant_id, id desc)
    where status <> 'sent'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists mail_outbox_unsent_index`.execute(db);
  await sql`alter table mail_outbox drop column if exists last_attempt_at`.execute(db);
  await sql`alter table mail_outbox alter column tenant_id drop not null`.execute(db);
}
