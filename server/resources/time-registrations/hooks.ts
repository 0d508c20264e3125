/**
 * A time registration's rounded time is computed, never sent: the time spent rounded up to the tenant's
 * step (setting `time_rounding_minutes`, 15 in the demo: 01:30 stays 01:30, 00:20 becomes 00:30), the
 * figure that is invoiced and taken off a contract's hours. Without a valid step the time is not
 * rounded.
 */
import type { Reader } from '../../settings/tenant-config.ts';
import { tenantConfig } from '../../settings/tenant-config.ts';
import type { ResourceHooks } from '../hook-contract.ts';

export const TIME_ROUNDING_SETTING = 'time_rounding_minutes';

/** Minutes rounded up to a whole number of steps; a step that is not a positive whole number leaves them as they are. */
export function roundTimeSpent(minutes: number, step: number): number {
  if (!Number.isInteger(step) || step <= 0) return minutes;
  return Math.ceil(minutes / step) * step;
}

async function roundingStep(db: Reader, tenantId: number): Promise<number> {
  return Number(await tenantConfig(db, tenantId, TIME_ROUNDING_SETTING));
}

export const timeRegistrationHooks: ResourceHooks = {
  async beforeStore(row, { trx, auth }) {
    row.time_spent_rounded = roundTimeSpent(
      Number(row.time_spent ?? 0),
      await roundingStep(trx, auth.tenantId),
    );
  },
  async beforeUpdate(_id, changes, { trx, auth }) {
    if (changes.time_spent === undefined) return;
    changes.time_spent_rounded = roundTimeSpent(
      Number(changes.time_spent),
      await roundingStep(trx, auth.tenantId),
    );
  },
};
