/**
 * The SLA clock (issue 35): from a ticket's recorded events and its SLA policy, each target's due
 * instant, elapsed and remaining business minutes, pause and state. Pure: the same events, policies and
 * `now` always give the same answer, so a stored answer can be checked against a full recompute.
 *
 * The rules (docs/decisions.md, "2026-12-02: the SLA clock's rules (issue 35)"):
 *
 * 1. Three targets, in business minutes of the policy's calendar, per priority: first response,
 *    next response and resolution. A target the policy leaves out (or a ticket without SLA) has no due
 *    and is never breached; its elapsed time is still counted (in real minutes without an SLA).
 * 2. First response runs from creation to the first public operator reply (a message the client sees,
 *    or a mail to them). It runs once; reopening does not start it again.
 * 3. Next response: a client's reply after an operator's public reply starts a cycle; the next public
 *    operator reply meets it. Further client replies in a running cycle change nothing. Before the
 *    first response there is no cycle (the first response covers it). `next_response` shows the last
 *    cycle (null before any), `nextResponseBreaches` counts the breached ones.
 * 4. Resolution runs from creation to solved or closed. Reopening resumes it: the time before the
 *    solution is kept and the time the ticket was solved does not count, so a reopened ticket may be
 *    breached at once; restarting it would reward solving too early. Reopening while the client's last
 *    reply is unanswered also starts a next-response cycle.
 * 5. Solving or closing ends every running target at that instant: the solution is the answer. A
 *    target is met when it ended no later than its due, else breached; a breach stays a breach (a late
 *    reply is `breached` with its `endedAt`).
 * 6. Pauses: while the ticket's status is one of the policy's pausing statuses (waiting_for_reply and
 *    scheduled by default), no target counts time. Paused time never counts, in any calendar.
 * 7. SLA and priority changes: the whole history is measured with the ticket's current SLA and
 *    priority. The time that passed under the old ones is kept, counted in the new calendar, and the
 *    new targets apply from creation on; a more demanding SLA can thus breach at once. So the answer
 *    depends on the history and the current policy only, never on the order the changes came in.
 * 8. Merge: the surviving ticket keeps its own clock (the events it takes over are not replayed on
 *    it). The merged ticket's clock stops at the merge as if closed, and its later events are ignored.
 * 9. Events count in recorded order; one stamped earlier than the one before counts at that one's
 *    time. Events before `created` are ignored. `now` before the last event is taken as that event.
 * 10. An open target is breached from the instant its business minutes are used up (the due instant)
 *     on; an answer at that very instant is still in time. Warnings: the highest of the policy's
 *     percentages that the elapsed time has reached; `warning` is the state of an open, running,
 *     not yet breached target with a threshold reached.
 */
import { addBusinessMs, businessMsBetween } from './business-time.ts';
import { ALWAYS_OPEN, type Calendar } from './calendar.ts';
import {
  type ClockEvent,
  type ClockState,
  type ClockWindow,
  type SlaId,
  foldClock,
} from './clock-history.ts';

export type TargetName = 'first_response' | 'next_response' | 'resolution';
export const TARGET_NAMES: readonly TargetName[] = ['first_response', 'next_response', 'resolution'];

/** The statuses that pause the clock when a policy names none. */
export const DEFAULT_PAUSING_STATUSES: readonly string[] = ['waiting_for_reply', 'scheduled'];

/** An SLA as the clock needs it. */
export interface SlaPolicy {
  readonly calendar: Calendar;
  /** Per priority, business minutes per target; missing or null means no target. */
  readonly targets: Readonly<Record<string, Partial<Record<TargetName, number | null>>>>;
  /** Statuses that pause every target (DEFAULT_PAUSING_STATUSES when left out). */
  readonly pausingStatuses?: readonly string[];
  /** Warning thresholds, percentages of a target, e.g. [75, 90]. */
  readonly warnings?: readonly number[];
}

/** The policy of an SLA id, or null when there is none (removed, or the ticket has no SLA). */
export type PolicyResolver = (sla: SlaId) => SlaPolicy | null;

export type TargetState = 'running' | 'paused' | 'warning' | 'breached' | 'met';

export interface TargetClock {
  /** Business minutes allowed; null when there is no target. */
  readonly target: number | null;
  readonly startedAt: number;
  /** When the target's business minutes run out while it still counts; null when paused, met or none. */
  readonly due: number | null;
  /** The due instant that passed while the target was open; null when not breached. */
  readonly breachedAt: number | null;
  /** Whole business minutes counted so far (to `now`, or to the end). */
  readonly elapsed: number;
  /** `target − elapsed`, negative once overdue; null without a target. */
  readonly remaining: number | null;
  readonly paused: boolean;
  readonly pausedSince: number | null;
  readonly state: TargetState;
  /** The highest warning percentage reached, or null. */
  readonly threshold: number | null;
  /** When the state will change by time alone (next threshold or due) if nothing happens; or null. */
  readonly nextChangeAt: number | null;
  readonly endedAt: number | null;
  readonly endedBy: ClockWindow['endedBy'];
}

export interface ClockResult {
  readonly sla: SlaId | null;
  readonly priority: string | null;
  readonly open: boolean;
  readonly paused: boolean;
  readonly first_response: TargetClock | null;
  readonly next_response: TargetClock | null;
  readonly nextResponseBreaches: number;
  readonly resolution: TargetClock | null;
  /** When the ticket was opened again after being solved or closed, oldest first (epoch ms). */
  readonly reopenedAt: readonly number[];
  /** The earliest of the targets' nextChangeAt: until then a stored result stays true without events. */
  readonly nextChangeAt: number | null;
}

const MINUTE = 60_000;

/** [start, end) real-time stretches in which the ticket's status pauses the clock; the last may be open. */
function pausePeriods(state: ClockState, pausing: ReadonlySet<string>): [number, number][] {
  const out: [number, number][] = [];
  state.statuses.forEach(([at, status], i) => {
    if (!pausing.has(status)) return;
    const end = state.statuses[i + 1]?.[0] ?? Infinity;
    const last = out[out.length - 1];
    if (last && last[1] === at) last[1] = end;
    else out.push([at, end]);
  });
  return out;
}

/** The windows minus the pauses: the stretches in which the target counts (an open one ends at Infinity). */
function countingSegments(windows: readonly ClockWindow[], pauses: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const w of windows) {
    const end = w.end ?? Infinity;
    let cursor = w.start;
    for (const [ps, pe] of pauses) {
      if (pe <= cursor || ps >= end) continue;
      if (ps > cursor) out.push([cursor, ps]);
      cursor = Math.max(cursor, pe);
      if (cursor >= end) break;
    }
    if (cursor < end) out.push([cursor, end]);
  }
  return out;
}

/** The instant at which the counting segments hold `ms` business ms; null when they never do. */
function instantWhen(calendar: Calendar, segments: [number, number][], ms: number): number | null {
  let remaining = ms;
  for (const [start, end] of segments) {
    if (end === Infinity) return addBusinessMs(calendar, start, remaining);
    // Measure the segment first: adding from its start could walk far past its end for nothing.
    const held = businessMsBetween(calendar, start, end);
    if (held >= remaining) return addBusinessMs(calendar, start, remaining);
    remaining -= held;
  }
  return null;
}

interface Measure {
  readonly calendar: Calendar;
  readonly pauses: [number, number][];
  readonly warnings: readonly number[];
  readonly now: number;
}

function measureTarget(
  windows: readonly ClockWindow[],
  target: number | null,
  m: Measure,
): TargetClock | null {
  const last = windows[windows.length - 1];
  const first = windows[0];
  if (!last || !first) return null;
  const segments = countingSegments(windows, m.pauses);
  let elapsedMs = 0;
  for (const [start, end] of segments) {
    if (start >= m.now) break;
    elapsedMs += businessMsBetween(m.calendar, start, Math.min(end, m.now));
  }
  const open = last.end === null;
  const currentPause = open ? m.pauses.find(([ps, pe]) => ps <= m.now && m.now < pe) : undefined;
  const paused = currentPause !== undefined;
  const pausedSince = currentPause ? Math.max(currentPause[0], last.start) : null;
  const elapsed = Math.floor(elapsedMs / MINUTE);
  if (target === null) {
    const state = open ? (paused ? 'paused' : 'running') : 'met';
    return {
      target,
      startedAt: first.start,
      due: null,
      breachedAt: null,
      elapsed,
      remaining: null,
      paused,
      pausedSince,
      state,
      threshold: null,
      nextChangeAt: null,
      endedAt: last.end,
      endedBy: last.endedBy,
    };
  }
  const targetMs = target * MINUTE;
  const reached = instantWhen(m.calendar, segments, targetMs);
  const stop = open ? m.now : (last.end as number);
  // A reply at the due instant is in time; an open target is breached from its due instant on.
  const breached = reached !== null && (open ? reached <= stop : reached < stop);
  let threshold: number | null = null;
  for (const w of m.warnings)
    if (elapsedMs >= (targetMs * w) / 100 && (threshold === null || w > threshold)) threshold = w;
  let state: TargetState;
  if (!open) state = breached ? 'breached' : 'met';
  else if (breached) state = 'breached';
  else if (paused) state = 'paused';
  else state = threshold !== null ? 'warning' : 'running';
  let nextChangeAt: number | null = null;
  if (state === 'running' || state === 'warning') {
    const ahead = m.warnings
      .filter((w) => threshold === null || w > threshold)
      .map((w) => (targetMs * w) / 100);
    for (const ms of [...ahead, targetMs]) {
      const when = instantWhen(m.calendar, segments, Math.ceil(ms));
      if (when !== null && when > m.now && (nextChangeAt === null || when < nextChangeAt))
        nextChangeAt = when;
    }
  }
  return {
    target,
    startedAt: first.start,
    due: state === 'running' || state === 'warning' || state === 'breached' ? reached : null,
    breachedAt: breached ? reached : null,
    elapsed,
    remaining: target - elapsed,
    paused,
    pausedSince,
    state,
    threshold,
    nextChangeAt,
    endedAt: last.end,
    endedBy: last.endedBy,
  };
}

/** Each target measured at `now` from a folded history (./clock-history.ts) and the current policy. */
export function measureClock(state: ClockState, resolve: PolicyResolver, now: number): ClockResult {
  const policy = state.sla === null ? null : resolve(state.sla);
  const targets = (state.priority !== null && policy?.targets[state.priority]) || {};
  const m: Measure = {
    calendar: policy?.calendar ?? ALWAYS_OPEN,
    pauses: pausePeriods(state, new Set(policy?.pausingStatuses ?? DEFAULT_PAUSING_STATUSES)),
    warnings: policy?.warnings ?? [],
    now: Math.max(now, state.lastAt ?? now),
  };
  const targetOf = (name: TargetName) => targets[name] ?? null;
  const cycles = state.nextResponses.map((cycle) => measureTarget([cycle], targetOf('next_response'), m));
  const firstResponse = measureTarget(
    state.firstResponse ? [state.firstResponse] : [],
    targetOf('first_response'),
    m,
  );
  const nextResponse = cycles[cycles.length - 1] ?? null;
  const resolution = measureTarget(state.resolution, targetOf('resolution'), m);
  const changes = [firstResponse, nextResponse, resolution].flatMap((t) =>
    t?.nextChangeAt ? [t.nextChangeAt] : [],
  );
  return {
    sla: state.sla,
    priority: state.priority,
    open: state.open,
    paused: state.open && m.pauses.some(([ps, pe]) => ps <= m.now && m.now < pe),
    first_response: firstResponse,
    next_response: nextResponse,
    nextResponseBreaches: cycles.filter((c) => c?.state === 'breached').length,
    resolution,
    // Every resolution window after the first was opened by a reopening.
    reopenedAt: state.resolution.slice(1).map((w) => w.start),
    nextChangeAt: changes.length > 0 ? Math.min(...changes) : null,
  };
}

/** The clock of a ticket from its whole recorded history: the full recompute. */
export function computeClock(
  events: readonly ClockEvent[],
  resolve: PolicyResolver,
  now: number,
): ClockResult {
  return measureClock(foldClock(events), resolve, now);
}

export type { ClockEvent, ClockState, SlaId } from './clock-history.ts';
export { advanceClock, foldClock, EMPTY_CLOCK } from './clock-history.ts';
