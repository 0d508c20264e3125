/**
 * A time registration's rounded time is computed, never sent: the time spent rounded up to the tenant's
 * step (setting `time_rounding_minutes`, 15 in the demo: 01:30 stays 01:30, 00:20 becomes 00:30), the
 * figure that is invoiced and taken off a contract's hours. Without a valid step the time is not
 * rounded.
 *
 * A registration booked on a contract period (`contract_period_id`; a prepaid card is a contract with
 * period 'none' and its period) counts against it in the registration's own transaction (SPEC 3: a
 * period lists its registered and remaining time): the period's `registered_time` goes up and its
 * `minutes_remaining` down by the rounded time, and so does the contract's `minutes_remaining` when the
 * period is the contract's current one (its latest, the one a prepaid card's purchase tops up and the
 * demo seed copies into the contract). An edit takes the old booking back and books the new one (other
 * time, another period, no period); a delete takes it back. `x = x ± n` updates, so racing writes all
 * count. A registration without a period is work outside any contract: nothing is taken off.
 */
import { sql } from 'kysely';
import type { Db, DbTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../auth/context.ts';
import { tenantConfig } from '../../settings/tenant-config.ts';
import type { ResourceHooks } from '../hook-contract.ts';

export const TIME_ROUNDING_SETTING = 'time_rounding_minutes';

/** Minutes rounded up to a whole number of steps; a step that is not a positive whole number leaves them as they are. */
export function roundTimeSpent(minutes: number, step: number): number {
  if (!Number.isInteger(step) || step <= 0) return minutes;
  return Math.ceil(minutes / step) * step;
}

async function roundingStep(db: Db, tenantId: number): Promise<number> {
  return Number(await tenantConfig(db, tenantId, TIME_ROUNDING_SETTING));
}

/** Books `minutes` on the period (negative: takes them back), and on its contract if it is the current one. */
async function book(
  trx: DbTransaction,
  auth: AuthContext,
  periodId: number | null,
  minutes: number,
): Promise<void> {
  if (periodId === null || minutes === 0) return;
  const period = await trx
    .updateTable('contract_periods')
    .set({
      registered_time: sql`registered_time + ${minutes}`,
      minutes_remaining: sql`minutes_remaining - ${minutes}`,
      updated_at: sql`now()`,
    })
    .where('id', '=', periodId)
    .where('tenant_id', '=', auth.tenantId)
    .returning('contract_id')
    .executeTakeFirst();
  if (!period) return;
  await trx
    .updateTable('contracts')
    .set({ minutes_remaining: sql`minutes_remaining - ${minutes}`, updated_at: sql`now()` })
    .where('id', '=', period.contract_id)
    .where('tenant_id', '=', auth.tenantId)
    .where(
      sql.lit(periodId),
      '=',
      trx
        .selectFrom('contract_periods')
        .select('id')
        .where('contract_id', '=', period.contract_id)
        .where('tenant_id', '=', auth.tenantId)
        .orderBy('period_start', 'desc')
        .orderBy('id', 'desc')
        .limit(1),
    )
    .execute();
}

/** The registration's booking now (locked for the rest of the transaction). */
async function booking(
  trx: DbTransaction,
  auth: AuthContext,
  id: number,
): Promise<{ period: number | null; minutes: number }> {
  const row = await trx
    .selectFrom('time_registrations')
    .select(['contract_period_id', 'time_spent_rounded'])
    .where('id', '=', id)
    .where('tenant_id', '=', auth.tenantId)
    .forUpdate()
    .executeTakeFirst();
  if (!row || row.contract_period_id === null) return { period: null, minutes: 0 };
  return { period: Number(row.contract_period_id), minutes: Number(row.time_spent_rounded ?? 0) };
}

export const timeRegistrationHooks: ResourceHooks = {
  async beforeStore(row, { trx, auth }) {
    row.time_spent_rounded = roundTimeSpent(
      Number(row.time_spent ?? 0),
      await roundingStep(trx, auth.tenantId),
    );
  },
  async afterStore(id, { trx, auth }) {
    const now = await booking(trx, auth, id);
    await book(trx, auth, now.period, now.minutes);
  },
  async beforeUpdate(id, changes, { trx, auth }) {
    // The old booking goes back here, the new one is booked after the update (afterUpdate).
    const was = await booking(trx, auth, id);
    await book(trx, auth, was.period, -was.minutes);
    if (changes.time_spent === undefined) return;
    changes.time_spent_rounded = roundTimeSpent(
      Number(changes.time_spent),
      await roundingStep(trx, auth.tenantId),
    );
  },
  async afterUpdate(id, { trx, auth }) {
    const now = await booking(trx, auth, id);
    await book(trx, auth, now.period, now.minutes);
  },
  async beforeDestroy(id, { trx, auth }) {
    const was = await booking(trx, auth, id);
    await book(trx, auth, was.period, -was.minutes);
  },
};
