import { sql, type Kysely } from 'kysely';

/*
 * Prepaid balance alerts (issue 39, item 2), frozen in time like every migration.
 *
 * contracts.balance_threshold: the percentage of a period's hours under which its company is told the
 * balance runs low (default 20 %; 0 tells only when it is used up).
 *
 * balance_alerts: one row per contract period and level ('low', 'empty') that was told. The row is the
 * claim: inserted in the transaction that queues the mails and notifications, so however many instances
 * look, one of them tells (server/reports/balance-alerts.ts). The row goes when the balance is back
 * above the level (hours bought, time removed): falling below again tells again. A new period is a new
 * key of its own.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table contracts add column balance_threshold integer not null default 20
    check (balance_threshold between 0 and 100)`.execute(db);
  await sql`
    create table balance_alerts (
      tenant_id integer not null references tenants(id) on delete cascade,
      contract_period_id integer not null references contract_periods(id) on delete cascade,
      level text not null check (level in ('low', 'empty')),
      created_at timestamptz not null default now(),
      primary key (contract_period_id, level)
    )`.execute(db);
  await sql`create index balance_alerts_tenant_index on balance_alerts (tenant_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists balance_alerts`.execute(db);
  await sql`alter table contracts drop column if exists balance_threshold`.execute(db);
}
