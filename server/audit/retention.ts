/**
 * How long the audit log keeps its entries (issue 38, item 5): the tenant setting
 * `audit_log_retention_days` (resource `config`), whole days, 365 when absent or not a whole number of
 * at least 1. The sweep runs in the deadline loop (live/plugin.ts) at most once an hour per instance.
 * Deleting what is older than a moment is idempotent, so any number of instances may sweep at once:
 * each deletes what the others have not yet, and none deletes anything twice or too young.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export const AUDIT_RETENTION_SETTING = 'audit_log_retention_days';
export const AUDIT_RETENTION_DEFAULT_DAYS = 365;
export const AUDIT_SWEEP_EVERY_MS = 3_600_000;

/**
 * Deletes each tenant's entries older than its retention; answers how many went. The only delete the
 * table's trigger lets through: it checks the transaction-local `audit_log.sweep` set here, which ends
 * with this transaction.
 */
export async function sweepAuditLog(db: Db): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('audit_log.sweep', 'on', true)`.execute(trx);
    // The setting is text an operator types: a whole number (up to six digits) counts, anything else
    // is the default. The pattern is anchored and has no nested repetition.
    const result = await sql`
      with retention as (
        select t.id as tenant_id,
          coalesce(
            (select greatest(trim(c.value)::int, 1) from tenant_configs c
              where c.tenant_id = t.id and c.name = ${AUDIT_RETENTION_SETTING}
                and c.value ~ '^\\s*[0-9]{1,6}\\s*$'),
            ${AUDIT_RETENTION_DEFAULT_DAYS}
          ) as days
        from tenants t
      )
      delete from audit_log a using retention r
      where a.tenant_id = r.tenant_id and a.at < now() - make_interval(days => r.days)`.execute(trx);
    return Number(result.numAffectedRows ?? 0);
  });
}
