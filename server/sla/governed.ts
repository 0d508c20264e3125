/**
 * Which open tickets a change of the SLA's inputs concerns (issue 35, item 3): an SLA's targets or
 * warnings, a calendar, a status's pause flag, a company's or contract's SLA. Their resources' hooks
 * (`recheckOn`) mark them for the background pass (./recheck.ts) in the change's transaction: one
 * statement, however many tickets, and the pass measures them in batches, resuming after a restart
 * because the mark is in the table.
 *
 * The stored `applied_sla_id` says which SLA governs a ticket now; a ticket naming its own SLA is not
 * concerned by its company's or contract's.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { DbTransaction } from '../db/database.ts';
import type { HookContext, ResourceHooks } from '../resources/hook-contract.ts';
import { DEFAULT_SLA_SETTING } from './policy.ts';
import { markForRecheck } from './recheck.ts';

/** The open tickets a record's change concerns: a condition on `tickets`, or null for none. */
export type Governed = (
  id: number,
  trx: DbTransaction,
  tenantId: number,
) => Promise<Expression<SqlBool> | null> | Expression<SqlBool> | null;

export const governedBySla: Governed = (id) => sql<boolean>`applied_sla_id = ${id}`;

export const governedByCalendar: Governed = (id, _trx, tenantId) =>
  sql<boolean>`applied_sla_id in (select s.id from slas s where s.tenant_id = ${tenantId} and s.business_hour_contract_id = ${id})`;

/** A status's pause flag: every ticket under any SLA may have been in it. */
export const governedByAnySla: Governed = () => sql<boolean>`applied_sla_id is not null`;

export const governedByCompany: Governed = (id) => sql<boolean>`company_id = ${id} and sla_id is null`;

export const governedByContract: Governed = (id, _trx, tenantId) =>
  sql<boolean>`sla_id is null and company_id in (select cc.company_id from company_contract cc join contracts k on k.id = cc.contract_id where cc.contract_id = ${id} and k.tenant_id = ${tenantId})`;

/** The tenant's default SLA (a setting): the tickets that have theirs from the tenant or none. */
export const governedBySetting: Governed = async (id, trx, tenantId) => {
  const row = await trx
    .selectFrom('tenant_configs')
    .select('name')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.name === DEFAULT_SLA_SETTING
    ? sql<boolean>`sla_id is null and (applied_sla_source is null or applied_sla_source = 'tenant')`
    : null;
};

/** An SLA's per-priority target row: the tickets of its SLA. */
export const governedBySlaTarget: Governed = async (id, trx, tenantId) => {
  const row = await trx
    .selectFrom('sla_targets')
    .select('sla_id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? governedBySla(row.sla_id, trx, tenantId) : null;
};

async function mark(governed: Governed, id: number, { trx, auth }: HookContext): Promise<void> {
  const condition = await governed(id, trx, auth.tenantId);
  if (condition) await markForRecheck(trx, auth.tenantId, condition);
}

/**
 * Hooks that mark the tickets `governed` selects when a record is stored, changed or deleted (before
 * it goes, while the condition can still find them); with `columns`, only a change of one of them.
 */
export function recheckOn(governed: Governed, columns?: readonly string[]): ResourceHooks {
  const changed = new WeakMap<DbTransaction, Set<number>>();
  return {
    afterStore: (id, ctx) => mark(governed, id, ctx),
    // Before and after: a contract's companies, a setting's name may be what changes.
    async beforeUpdate(id, changes, ctx) {
      if (columns && !columns.some((c) => c in changes)) return;
      changed.set(ctx.trx, (changed.get(ctx.trx) ?? new Set<number>()).add(id));
      await mark(governed, id, ctx);
    },
    async afterUpdate(id, ctx) {
      if (!changed.get(ctx.trx)?.delete(id)) return;
      await mark(governed, id, ctx);
    },
    beforeDestroy: (id, ctx) => mark(governed, id, ctx),
  };
}

/** Two resources' hooks as one: each of `a`'s then `b`'s runs (presenters are `a`'s only). */
export function bothHooks(a: ResourceHooks, b: ResourceHooks): ResourceHooks {
  const seq =
    <A extends unknown[]>(f?: (...args: A) => unknown, g?: (...args: A) => unknown) =>
    async (...args: A) => {
      await f?.(...args);
      await g?.(...args);
    };
  return {
    ...a,
    beforeStore: seq(a.beforeStore, b.beforeStore),
    afterStore: seq(a.afterStore, b.afterStore),
    beforeUpdate: seq(a.beforeUpdate, b.beforeUpdate),
    afterUpdate: seq(a.afterUpdate, b.afterUpdate),
    beforeDestroy: seq(a.beforeDestroy, b.beforeDestroy),
  };
}
