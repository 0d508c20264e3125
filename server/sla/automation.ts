/**
 * SLA warnings and breaches as events of the desk's triggers (issue 37): each alert a clock reaches
 * (warnings.ts's keys: ticket, target, threshold or breach instant) runs the sla_warning or sla_breach
 * triggers once, however many instances measure the clock: the key's row in automation_event_claims is
 * the claim, and only the transaction that inserts it fires.
 */
import type { ClockResult } from '../../common/sla/clock.ts';
import { automationEvent } from '../automation/events.ts';
import type { DbTransaction } from '../db/database.ts';
import { slaAlerts } from './warnings.ts';

export async function slaEvents(
  trx: DbTransaction,
  tenantId: number,
  clocks: ReadonlyMap<number, { clock: ClockResult }>,
  now: number,
): Promise<void> {
  for (const [ticketId, { clock }] of clocks)
    for (const alert of slaAlerts(ticketId, clock, now)) {
      const claimed = await trx
        .insertInto('automation_event_claims')
        .values({ tenant_id: tenantId, key: alert.key })
        .onConflict((oc) => oc.columns(['tenant_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (!claimed) continue;
      const event = alert.kind === 'sla_warning' ? 'sla_warning' : 'sla_breach';
      await automationEvent(trx, { tenantId, event, ticketId });
    }
}
