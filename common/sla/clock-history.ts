/**
 * The SLA clock's history (issue 35): a ticket's recorded events, folded one by one into a small
 * timeline that says when each target was open, and nothing about calendars, targets or pauses. Those
 * come from the SLA policy when the timeline is measured (./clock.ts), so a change of SLA or priority
 * measures the whole history again with the new policy without replaying any event.
 *
 * The timeline is plain JSON data: a server may keep it with the ticket and fold each new event into
 * it (`advanceClock`), and the result is the same as folding the whole history again
 * (tests/unit/sla-clock.test.ts holds that for random histories). The rules are in ./clock.ts's header.
 */

export type SlaId = string | number;

/** Why a target's window closed. */
export type EndReason = 'reply' | 'solved' | 'closed' | 'merged';

/** A ticket's recorded events, as the clock reads them; `at` is epoch ms. */
export type ClockEvent =
  | { type: 'created'; at: number; status: string; priority: string; sla: SlaId | null }
  /** A message visible to the client, or a mail sent to them, by an operator. */
  | { type: 'public_operator_reply'; at: number }
  | { type: 'client_reply'; at: number }
  | { type: 'status_changed'; at: number; status: string }
  | { type: 'priority_changed'; at: number; priority: string }
  | { type: 'sla_changed'; at: number; sla: SlaId | null }
  /** `absorbed`: this ticket was merged into another; `survivor`: another was merged into this one. */
  | { type: 'merged'; at: number; role: 'absorbed' | 'survivor' }
  | { type: 'reopened'; at: number }
  | { type: 'solved'; at: number }
  | { type: 'closed'; at: number };

/** A stretch of real time in which a target was open (paused or not); `end` null while it still is. */
export interface ClockWindow {
  readonly start: number;
  readonly end: number | null;
  readonly endedBy: EndReason | null;
}

/** The folded history: JSON data, never mutated by `advanceClock`. */
export interface ClockState {
  readonly createdAt: number | null;
  /** The time of the last event taken in (events are never taken as earlier than this). */
  readonly lastAt: number | null;
  readonly priority: string | null;
  readonly sla: SlaId | null;
  /** The ticket's status from each change on: [at, status], first at creation. */
  readonly statuses: readonly (readonly [number, string])[];
  /** Not solved or closed (and not merged away). */
  readonly open: boolean;
  /** Merged into another ticket: later events change nothing. */
  readonly absorbed: boolean;
  readonly lastOperatorReplyAt: number | null;
  readonly lastClientReplyAt: number | null;
  readonly firstResponse: ClockWindow | null;
  /** One window per client reply that asked for an answer; the last may still be open. */
  readonly nextResponses: readonly ClockWindow[];
  /** One window from creation, and one more from each reopening. */
  readonly resolution: readonly ClockWindow[];
}

export const EMPTY_CLOCK: ClockState = {
  createdAt: null,
  lastAt: null,
  priority: null,
  sla: null,
  statuses: [],
  open: false,
  absorbed: false,
  lastOperatorReplyAt: null,
  lastClientReplyAt: null,
  firstResponse: null,
  nextResponses: [],
  resolution: [],
};

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function ended(window: ClockWindow, at: number, endedBy: EndReason): ClockWindow {
  return window.end === null ? { start: window.start, end: at, endedBy } : window;
}

/** The list with its last window ended, if it was open. */
function endLast(windows: readonly ClockWindow[], at: number, endedBy: EndReason): readonly ClockWindow[] {
  const last = windows[windows.length - 1];
  if (!last || last.end !== null) return windows;
  return [...windows.slice(0, -1), ended(last, at, endedBy)];
}

function lastOpen(windows: readonly ClockWindow[]): boolean {
  const last = windows[windows.length - 1];
  return last !== undefined && last.end === null;
}

/** Whether the client's last reply is still unanswered (and an answer was ever given before it). */
function clientWaiting(state: ClockState): boolean {
  return (
    state.lastClientReplyAt !== null &&
    state.firstResponse?.end != null &&
    (state.lastOperatorReplyAt === null || state.lastClientReplyAt > state.lastOperatorReplyAt)
  );
}

/** Everything open stops at `at`: solving, closing or merging away. */
function stopAll(next: Mutable<ClockState>, at: number, endedBy: EndReason): void {
  next.open = false;
  if (next.firstResponse) next.firstResponse = ended(next.firstResponse, at, endedBy);
  next.nextResponses = endLast(next.nextResponses, at, endedBy);
  next.resolution = endLast(next.resolution, at, endedBy);
}

/** The state after one more event; `state` is left as it was. */
export function advanceClock(state: ClockState, event: ClockEvent): ClockState {
  if (state.absorbed) return state;
  if (state.createdAt === null && event.type !== 'created') return state;
  // An event recorded after another but stamped earlier (clocks of other machines) counts as
  // simultaneous with it: the history is read in recorded order, so folding stays equal to replaying.
  const at = state.lastAt === null ? event.at : Math.max(event.at, state.lastAt);
  const next: Mutable<ClockState> = { ...state, lastAt: at };
  switch (event.type) {
    case 'created':
      if (state.createdAt !== null) return state;
      next.createdAt = at;
      next.priority = event.priority;
      next.sla = event.sla;
      next.statuses = [[at, event.status]];
      next.open = true;
      next.firstResponse = { start: at, end: null, endedBy: null };
      next.resolution = [{ start: at, end: null, endedBy: null }];
      break;
    case 'public_operator_reply':
      next.lastOperatorReplyAt = at;
      if (next.firstResponse) next.firstResponse = ended(next.firstResponse, at, 'reply');
      next.nextResponses = endLast(next.nextResponses, at, 'reply');
      break;
    case 'client_reply':
      next.lastClientReplyAt = at;
      if (state.open && state.firstResponse?.end != null && !lastOpen(state.nextResponses)) {
        next.nextResponses = [...state.nextResponses, { start: at, end: null, endedBy: null }];
      }
      break;
    case 'status_changed': {
      const current = state.statuses[state.statuses.length - 1];
      if (current?.[1] !== event.status) next.statuses = [...state.statuses, [at, event.status]];
      break;
    }
    case 'priority_changed':
      next.priority = event.priority;
      break;
    case 'sla_changed':
      next.sla = event.sla;
      break;
    case 'solved':
    case 'closed':
      if (state.open) stopAll(next, at, event.type);
      break;
    case 'reopened':
      if (state.open) break;
      next.open = true;
      next.resolution = [...state.resolution, { start: at, end: null, endedBy: null }];
      if (clientWaiting(state))
        next.nextResponses = [...state.nextResponses, { start: at, end: null, endedBy: null }];
      break;
    case 'merged':
      if (event.role === 'absorbed') {
        stopAll(next, at, 'merged');
        next.absorbed = true;
      }
      break;
  }
  return next;
}

/** The whole history folded, in recorded order. */
export function foldClock(events: readonly ClockEvent[], from: ClockState = EMPTY_CLOCK): ClockState {
  let state = from;
  for (const event of events) state = advanceClock(state, event);
  return state;
}
