/**
 * One measuring of tickets' SLA clocks, as both the write paths (./keep.ts) and the background pass
 * (./recheck.ts) do it: store each clock (./stored-clock.ts), tell what it reached (./warnings.ts) and
 * the triggers of its warnings and breaches (./automation.ts),
 * run the breach actions (./escalation.ts), and measure again the tickets those changed (a raised
 * priority has other targets) and tell what that reached. The actions do not run a second time in the
 * same measuring: their claim is per breach instant, and the next look finds nothing new to do.
 */
import type { DbTransaction } from '../db/database.ts';
import { escalateBreaches } from './escalation.ts';
import { storeTicketClocks } from './stored-clock.ts';
import { notifySlaAlerts } from './warnings.ts';
import { slaEvents } from './automation.ts';

export async function measureTickets(
  trx: DbTransaction,
  tenantId: number,
  ids: readonly number[],
  now: number,
): Promise<void> {
  if (ids.length === 0) return;
  const clocks = await storeTicketClocks(trx, tenantId, ids, now);
  await notifySlaAlerts(trx, tenantId, clocks, now);
  await slaEvents(trx, tenantId, clocks, now);
  const escalated = await escalateBreaches(trx, tenantId, clocks, now);
  if (escalated.length === 0) return;
  await notifySlaAlerts(trx, tenantId, await storeTicketClocks(trx, tenantId, escalated, now), now);
}
