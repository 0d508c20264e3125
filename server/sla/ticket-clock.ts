/**
 * One ticket's SLA clock, recomputed from its whole history (issue 35, item 3): its events
 * (./ticket-events.ts), the SLA that applies and why, and the policies of every SLA its history names
 * (./policy.ts). Two statements whatever the history's length (one when the policies are known); the
 * measuring is pure (common/sla/clock.ts), so a stored result can always be checked against this full recompute.
 */
import { computeClock, type ClockResult, type SlaPolicy } from '../../common/sla/clock.ts';
import type { Db, DbTransaction } from '../db/database.ts';
import { slaPolicies, type AppliedSla } from './policy.ts';
import { FALLBACK_SLA, ticketHistory } from './ticket-events.ts';

export interface TicketClock {
  /** The SLA that governs the ticket now and why; null when none does. */
  applied: AppliedSla | null;
  clock: ClockResult;
  /** The next date (the tenant's) a contract's SLA may start or stop applying (./policy.ts). */
  contractChange: string | null;
}

/** The ticket's clock at `now` (epoch ms), `today` the tenant's date (contracts run by date); null when the ticket is not the tenant's. */
export async function ticketClock(
  db: Db | DbTransaction,
  tenantId: number,
  ticketId: number,
  now: number,
  today: string,
  /** Policies already read (a batch of tickets shares them); those read here are added. */
  known: Map<number, SlaPolicy> = new Map(),
): Promise<TicketClock | null> {
  const history = await ticketHistory(db, tenantId, ticketId, today);
  if (!history) return null;
  const { events, applied, fallback, contractChange } = history;
  const named = new Set<number>();
  for (const event of events) {
    if ((event.type === 'created' || event.type === 'sla_changed') && typeof event.sla === 'number')
      named.add(event.sla);
  }
  if (fallback) named.add(fallback.slaId);
  const missing = [...named].filter((id) => !known.has(id));
  if (missing.length > 0)
    for (const [id, policy] of await slaPolicies(db, tenantId, missing)) known.set(id, policy);
  const policies = known;
  const resolve = (sla: string | number): SlaPolicy | null =>
    sla === FALLBACK_SLA
      ? fallback
        ? (policies.get(fallback.slaId) ?? null)
        : null
      : (policies.get(Number(sla)) ?? null);
  return { applied, clock: computeClock(events, resolve, now), contractChange };
}
