/**
 * The SLA clock's answer kept on the ticket (issue 35, item 3): what lists, filters, sorts and the
 * dashboard read (migration 0031). It is always the full recompute's answer (./ticket-clock.ts), written
 * in the transaction of the change that made it so: every path that changes a ticket or its thread
 * calls `storeTicketClocks` after its writes (server/resources/tickets, messages). Time alone changes
 * it too (a threshold is reached, a due instant passes): `sla_recheck_at` says when, and the background
 * pass (./recheck.ts) recomputes the ticket then.
 */
import { DateTime } from 'luxon';
import { DEFAULT_TIME_ZONE } from '../../common/sla/calendar.ts';
import type { ClockResult, SlaPolicy, TargetClock, TargetName, TargetState } from '../../common/sla/clock.ts';
import type { DbTransaction } from '../db/database.ts';
import type { AppliedSla } from './policy.ts';
import { ticketClock, type TicketClock } from './ticket-clock.ts';

/** The stored columns of one ticket's clock (tickets.*, migration 0031). */
export interface StoredClock {
  applied_sla_id: number | null;
  applied_sla_source: string | null;
  first_response_due: Date | null;
  first_response_state: TargetState | null;
  next_response_due: Date | null;
  next_response_state: TargetState | null;
  resolution_due: Date | null;
  resolution_state: TargetState | null;
  sla_state: TargetState | null;
  sla_due: Date | null;
  sla_recheck_at: Date | null;
  /** How long the ticket took, for the reports (migration 0034): see `responseTimes`. */
  first_response_at: Date | null;
  first_response_minutes: number | null;
  resolution_minutes: number | null;
  /** When it was opened again after being solved or closed (migration 0036). */
  reopened_at: Date[];
}

/** Worst first: the ticket's state is that of its worst target. */
const SEVERITY: readonly TargetState[] = ['breached', 'warning', 'running', 'paused', 'met'];

const instant = (ms: number | null) => (ms === null ? null : new Date(ms));

/** The contracts' date (they run by date) in the zone the desk keeps its calendars in by default. */
export function tenantToday(now: number): string {
  return DateTime.fromMillis(now, { zone: DEFAULT_TIME_ZONE }).toISODate() as string;
}

/** The start of `date` (YYYY-MM-DD) in the tenant's zone, epoch ms. */
export function tenantMidnight(date: string): number {
  return DateTime.fromISO(date, { zone: DEFAULT_TIME_ZONE }).toMillis();
}

/**
 * What the reports measure, whether or not an SLA promises anything (without one, on the clock's
 * always-open calendar): the first answer to the client and its business minutes, and the business
 * minutes the ticket was open once it is solved or closed, every reopened stretch added, and when it was
 * reopened. A ticket solved
 * without an answer has no first response; one merged into another has no resolution of its own (and a
 * first response only if it was answered before).
 */
export function responseTimes(
  clock: ClockResult,
): Pick<StoredClock, 'first_response_at' | 'first_response_minutes' | 'resolution_minutes' | 'reopened_at'> {
  const first = clock.first_response;
  const answered = first !== null && first.endedBy === 'reply' && first.endedAt !== null;
  const resolution = clock.resolution;
  const done =
    !clock.open &&
    resolution !== null &&
    (resolution.endedBy === 'solved' || resolution.endedBy === 'closed');
  return {
    first_response_at: answered ? new Date(first.endedAt!) : null,
    first_response_minutes: answered ? first.elapsed : null,
    resolution_minutes: done ? resolution.elapsed : null,
    reopened_at: clock.reopenedAt.map((at) => new Date(at)),
  };
}

const earliest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/** A target as stored: no state without a target (the badge's check mark), no due unless it counts. */
function target(clock: TargetClock | null): { due: Date | null; state: TargetState | null } {
  if (!clock || clock.target === null) return { due: null, state: null };
  return { due: instant(clock.due), state: clock.state };
}

/**
 * The columns that keep `clock`, governed by `applied` (none: nothing is promised, nothing stored).
 * `alsoAt`: a moment the stored result may stop being true for a reason outside the clock (a
 * contract's SLA starting or ending), to be measured again then too.
 */
export function storedClock(
  applied: AppliedSla | null,
  clock: ClockResult,
  alsoAt: number | null = null,
): StoredClock {
  const names: TargetName[] = ['first_response', 'next_response', 'resolution'];
  const targets = Object.fromEntries(
    names.map((name) => [name, target(applied ? clock[name] : null)]),
  ) as Record<TargetName, ReturnType<typeof target>>;
  const states = names.flatMap((name) => (targets[name].state ? [targets[name].state] : []));
  const inTime = names.flatMap((name) => {
    const { state, due } = targets[name];
    return (state === 'running' || state === 'warning') && due ? [due.getTime()] : [];
  });
  return {
    applied_sla_id: applied?.slaId ?? null,
    applied_sla_source: applied?.source ?? null,
    first_response_due: targets.first_response.due,
    first_response_state: targets.first_response.state,
    next_response_due: targets.next_response.due,
    next_response_state: targets.next_response.state,
    resolution_due: targets.resolution.due,
    resolution_state: targets.resolution.state,
    sla_state: SEVERITY.find((s) => states.includes(s)) ?? null,
    sla_due: inTime.length > 0 ? new Date(Math.min(...inTime)) : null,
    sla_recheck_at: instant(earliest(applied ? clock.nextChangeAt : null, alsoAt)),
    ...responseTimes(clock),
  };
}

/** The columns that keep a ticket's measured clock (./ticket-clock.ts). */
export function storedTicketClock({ applied, clock, contractChange }: TicketClock): StoredClock {
  // An open ticket is measured again when a contract's SLA starts or ends, at the tenant's midnight.
  const change = clock.open && contractChange !== null ? tenantMidnight(contractChange) : null;
  return storedClock(applied, clock, change);
}

/** What was stored before, for the warnings to tell what is new (./warnings.ts). */
export type StoredRow = { id: number } & StoredClock;

/**
 * Recomputes and stores the clocks of tickets `ids` of the tenant at `now`, in the caller's
 * transaction; answers each ticket's clock (templates and other tenants' tickets are left out).
 * Two statements to read a ticket's history and policy (one once a batch knows the policy), one to
 * write it.
 */
export async function storeTicketClocks(
  trx: DbTransaction,
  tenantId: number,
  ids: readonly number[],
  now = Date.now(),
): Promise<Map<number, { stored: StoredClock; clock: ClockResult }>> {
  const out = new Map<number, { stored: StoredClock; clock: ClockResult }>();
  if (ids.length === 0) return out;
  // In id order, so that concurrent batches lock their tickets in one order.
  const tickets = [...new Set(ids)].sort((a, b) => a - b);
  const today = tenantToday(now);
  // One reading of each SLA's policy for the whole batch.
  const policies = new Map<number, SlaPolicy>();
  for (const id of tickets) {
    const measured = await ticketClock(trx, tenantId, id, now, today, policies);
    if (!measured) continue;
    const stored = storedTicketClock(measured);
    await trx
      .updateTable('tickets')
      .set(stored)
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .execute();
    out.set(id, { stored, clock: measured.clock });
  }
  return out;
}
