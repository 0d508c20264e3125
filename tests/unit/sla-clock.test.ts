/**
 * The SLA clock's rules (issue 35; common/sla/clock.ts, clock-history.ts): first and next response,
 * resolution, pauses, warnings and breaches, measured exactly on office hours with a lunch break in
 * Amsterdam, over DST weekends and holidays; SLA and priority changed midway, reopening, merging. For
 * random histories and calendars: a stored (JSON) fold fed the rest of the events measures the same as
 * the full recompute, and the elapsed time equals a minute-by-minute count.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWorking } from '../../common/sla/business-time.ts';
import { type Calendar, WEEKDAYS, toCalendar } from '../../common/sla/calendar.ts';
import {
  type ClockEvent,
  EMPTY_CLOCK,
  type PolicyResolver,
  type SlaPolicy,
  advanceClock,
  computeClock,
  foldClock,
  measureClock,
} from '../../common/sla/clock.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());
const weekdays = (...intervals: [string, string][]) =>
  Object.fromEntries(WEEKDAYS.slice(0, 5).map((day) => [day, intervals.map(([from, to]) => ({ from, to }))]));

const office = toCalendar({
  schedule: weekdays(['08:00', '12:00'], ['13:00', '17:30']),
  holidays: [{ date: '12-25', name: 'Christmas' }],
});
const targets = {
  high: { first_response: 60, next_response: 120, resolution: 480 },
  normal: { first_response: 240, next_response: 480, resolution: 2400 },
};
const basic: SlaPolicy = { calendar: office, targets, warnings: [75, 90] };
const premium: SlaPolicy = {
  calendar: toCalendar({ schedule: '24/7' }),
  targets: { high: { first_response: 30, resolution: 240 }, normal: { resolution: 480 } },
  warnings: [75, 90],
};
const resolve: PolicyResolver = (sla) => ({ basic, premium })[sla as 'basic' | 'premium'] ?? null;

/** Monday 7 December 2026 in Amsterdam (CET, UTC+1): `local('09:00')` is 08:00Z. */
const local = (hhmm: string, date = '2026-12-07') => at(`${date}T${hhmm}:00+01:00`);
const created = (time: number, priority = 'high', sla: string | null = 'basic'): ClockEvent => ({
  type: 'created',
  at: time,
  status: 'new',
  priority,
  sla,
});

describe('first response', () => {
  it('runs from creation: due, elapsed, remaining, warnings at 75 and 90 % and the breach', () => {
    const events = [created(local('09:00'))];
    const running = computeClock(events, resolve, local('09:30')).first_response!;
    expect(running).toMatchObject({
      target: 60,
      elapsed: 30,
      remaining: 30,
      state: 'running',
      threshold: null,
    });
    expect(iso(running.due)).toBe(iso(local('10:00')));
    expect(iso(running.nextChangeAt)).toBe(iso(local('09:45')));
    // The ticket's next change is the earliest of its targets': the first response's warning.
    expect(iso(computeClock(events, resolve, local('09:30')).nextChangeAt)).toBe(iso(local('09:45')));
    expect(computeClock(events, resolve, local('09:50')).first_response).toMatchObject({
      state: 'warning',
      threshold: 75,
    });
    const late = computeClock(events, resolve, local('10:01')).first_response!;
    expect(late).toMatchObject({ state: 'breached', threshold: 90, elapsed: 61, remaining: -1 });
    expect(iso(late.breachedAt)).toBe(iso(local('10:00')));
  });

  it('is met by the first public operator reply, and counts no lunch break', () => {
    const events: ClockEvent[] = [
      created(local('11:30')),
      { type: 'public_operator_reply', at: local('13:20') },
    ];
    const met = computeClock(events, resolve, local('16:00')).first_response!;
    expect(met).toMatchObject({ state: 'met', elapsed: 50, endedBy: 'reply', due: null, breachedAt: null });
    // Without the reply it is due at 13:30: 30 minutes before lunch, 30 after.
    expect(iso(computeClock(events.slice(0, 1), resolve, local('12:30')).first_response!.due)).toBe(
      iso(local('13:30')),
    );
  });
});

describe('pauses, DST and holidays', () => {
  it('several pauses (one over lunch) never count, and the due moves past them', () => {
    const events: ClockEvent[] = [
      created(local('08:00')),
      { type: 'public_operator_reply', at: local('08:10') },
      { type: 'status_changed', at: local('09:00'), status: 'waiting_for_reply' },
      { type: 'status_changed', at: local('10:00'), status: 'open' },
      { type: 'status_changed', at: local('11:00'), status: 'scheduled' },
      { type: 'status_changed', at: local('14:00'), status: 'open' },
    ];
    const evening = computeClock(events, resolve, local('17:30')).resolution!;
    // 510 working minutes, 60 + 60 + 60 of them paused (lunch is no working time anyway).
    expect(evening).toMatchObject({ elapsed: 330, remaining: 150, state: 'running', paused: false });
    expect(iso(evening.due)).toBe(iso(local('10:30', '2026-12-08')));
    // (Measured with the events up to then: a `now` before the last event is taken as that event.)
    const duringPause = computeClock(events.slice(0, 5), resolve, local('12:30'));
    expect(duringPause.paused).toBe(true);
    expect(duringPause.resolution).toMatchObject({ state: 'paused', paused: true, elapsed: 120, due: null });
    expect(iso(duringPause.resolution!.pausedSince)).toBe(iso(local('11:00')));
  });

  it('a due over the spring and autumn DST weekends is the same wall time on Monday', () => {
    // Friday 17:00 CET + 480: 30 on Friday, 450 on Monday (240 + 210), Monday 16:30, now CEST.
    const spring = computeClock(
      [created(at('2026-03-27T17:00:00+01:00'))],
      resolve,
      at('2026-03-30T12:00:00+02:00'),
    );
    expect(iso(spring.resolution!.due)).toBe('2026-03-30T14:30:00.000Z');
    expect(spring.resolution!.elapsed).toBe(270);
    const autumn = computeClock(
      [created(at('2026-10-23T17:00:00+02:00'))],
      resolve,
      at('2026-10-26T12:00:00+01:00'),
    );
    expect(iso(autumn.resolution!.due)).toBe('2026-10-26T15:30:00.000Z');
    expect(autumn.resolution!.elapsed).toBe(270);
  });

  it('skips a holiday: Christmas Eve 17:00 is due on Monday the 28th', () => {
    const clock = computeClock(
      [created(local('17:00', '2026-12-24'))],
      resolve,
      local('17:10', '2026-12-24'),
    );
    expect(iso(clock.first_response!.due)).toBe(iso(local('08:30', '2026-12-28')));
  });
});

describe('SLA and priority changes', () => {
  it('a new SLA measures the whole history in its own calendar: 24/7 breaches at once', () => {
    const events: ClockEvent[] = [
      created(local('08:00')),
      { type: 'public_operator_reply', at: local('08:10') },
      { type: 'sla_changed', at: local('08:00', '2026-12-08'), sla: 'premium' },
    ];
    const before = computeClock(events.slice(0, 2), resolve, local('08:00', '2026-12-08')).resolution!;
    expect(before).toMatchObject({ target: 480, elapsed: 510, state: 'breached' });
    const after = computeClock(events, resolve, local('08:00', '2026-12-08'));
    expect(after.sla).toBe('premium');
    expect(after.resolution).toMatchObject({ target: 240, elapsed: 1440, state: 'breached' });
    expect(iso(after.resolution!.breachedAt)).toBe(iso(local('12:00')));
    // The premium SLA has no next-response target; the first response (10 minutes) was within its 30.
    expect(after.first_response).toMatchObject({ target: 30, state: 'met' });
  });

  it('a higher priority applies its targets from creation on', () => {
    const events: ClockEvent[] = [
      created(local('08:00'), 'normal'),
      { type: 'priority_changed', at: local('08:30'), priority: 'high' },
    ];
    const clock = computeClock(events, resolve, local('08:45'));
    expect(clock.priority).toBe('high');
    expect(clock.first_response).toMatchObject({ target: 60, elapsed: 45, state: 'warning', threshold: 75 });
    expect(iso(clock.first_response!.due)).toBe(iso(local('09:00')));
  });

  it('without an SLA there are no targets, but elapsed real minutes and pauses still show', () => {
    const events: ClockEvent[] = [created(local('08:00'), 'high', null)];
    const clock = computeClock(events, resolve, local('20:00'));
    expect(clock.resolution).toMatchObject({ target: null, due: null, remaining: null, elapsed: 720 });
    expect(clock.resolution!.state).toBe('running');
  });
});

describe('reopen, next response and merge', () => {
  it('reopening resumes the resolution time; the solved time does not count', () => {
    const events: ClockEvent[] = [
      created(local('08:00')),
      { type: 'public_operator_reply', at: local('08:05') },
      { type: 'solved', at: local('12:00') },
      { type: 'reopened', at: local('08:00', '2026-12-08') },
    ];
    expect(computeClock(events.slice(0, 3), resolve, local('17:00')).resolution).toMatchObject({
      state: 'met',
      elapsed: 240,
      endedBy: 'solved',
    });
    const reopened = computeClock(events, resolve, local('10:00', '2026-12-08')).resolution!;
    expect(reopened).toMatchObject({ elapsed: 360, state: 'warning', threshold: 75, endedAt: null });
    // 240 minutes left from Tuesday 08:00 run out at 12:00, the end of the morning: due then, not 13:00.
    expect(iso(reopened.due)).toBe(iso(local('12:00', '2026-12-08')));
    // Solved again at 12:30, in the lunch break: no business minute later, but after the due: breached.
    const late = computeClock(
      [...events, { type: 'solved', at: local('12:30', '2026-12-08') }],
      resolve,
      local('17:00', '2026-12-08'),
    ).resolution!;
    expect(late).toMatchObject({ state: 'breached', elapsed: 480 });
  });

  it('next response: a cycle per client reply after an operator reply, met at its due exactly', () => {
    const events: ClockEvent[] = [
      created(local('08:00')),
      { type: 'client_reply', at: local('08:05') }, // before the first response: no cycle
      { type: 'public_operator_reply', at: local('08:10') },
      { type: 'client_reply', at: local('09:00') },
      { type: 'client_reply', at: local('09:30') }, // the cycle already runs
      { type: 'public_operator_reply', at: local('11:00') }, // 120 minutes: at the due, in time
      { type: 'client_reply', at: local('11:30') },
    ];
    expect(computeClock(events.slice(0, 3), resolve, local('08:20')).next_response).toBeNull();
    expect(computeClock(events.slice(0, 6), resolve, local('11:00')).next_response).toMatchObject({
      state: 'met',
      elapsed: 120,
    });
    const second = computeClock(events, resolve, local('14:00'));
    expect(second.next_response).toMatchObject({ elapsed: 90, state: 'warning', threshold: 75 });
    expect(iso(second.next_response!.startedAt)).toBe(iso(local('11:30')));
    expect(second.nextResponseBreaches).toBe(0);
    expect(computeClock(events, resolve, local('16:00')).nextResponseBreaches).toBe(1);
  });

  it('a merged ticket stops at the merge and ignores what follows; the survivor keeps its clock', () => {
    const events: ClockEvent[] = [
      created(local('08:00')),
      { type: 'merged', at: local('08:30'), role: 'absorbed' },
    ];
    const absorbed = computeClock(
      [...events, { type: 'reopened', at: local('09:00') }, { type: 'client_reply', at: local('09:00') }],
      resolve,
      local('17:00', '2026-12-08'),
    );
    expect(absorbed.open).toBe(false);
    expect(absorbed.first_response).toMatchObject({ state: 'met', elapsed: 30, endedBy: 'merged' });
    expect(absorbed.resolution).toMatchObject({ state: 'met', elapsed: 30, endedBy: 'merged' });
    const survivor: ClockEvent[] = [
      created(local('08:00')),
      { type: 'merged', at: local('08:30'), role: 'survivor' },
    ];
    expect(computeClock(survivor, resolve, local('09:00'))).toEqual(
      computeClock(survivor.slice(0, 1), resolve, local('09:00')),
    );
  });

  it('an event stamped before the previous one counts at the previous one’s time', () => {
    const events: ClockEvent[] = [
      created(local('08:00')),
      { type: 'client_reply', at: local('09:00') },
      { type: 'public_operator_reply', at: local('08:30') },
    ];
    expect(computeClock(events, resolve, local('10:00')).first_response).toMatchObject({
      elapsed: 60,
      state: 'met',
    });
  });
});

// Random histories: events at whole minutes after a creation, on one of a few calendars.
const STATUSES = ['open', 'waiting_for_reply', 'scheduled', 'in_progress'];
const eventArb = fc.oneof(
  fc.constant({ type: 'public_operator_reply' as const }),
  fc.constant({ type: 'client_reply' as const }),
  fc.constantFrom(...STATUSES).map((status) => ({ type: 'status_changed' as const, status })),
  fc
    .constantFrom('high', 'normal', 'low')
    .map((priority) => ({ type: 'priority_changed' as const, priority })),
  fc.constantFrom('basic', 'premium', 'night', null).map((sla) => ({ type: 'sla_changed' as const, sla })),
  fc
    .constantFrom('absorbed' as const, 'survivor' as const)
    .map((role) => ({ type: 'merged' as const, role })),
  fc.constant({ type: 'reopened' as const }),
  fc.constant({ type: 'solved' as const }),
  fc.constant({ type: 'closed' as const }),
);
const night: SlaPolicy = {
  calendar: toCalendar({
    schedule: Object.fromEntries(
      WEEKDAYS.map((d) => [
        d,
        [
          { from: '00:00', to: '04:00' },
          { from: '22:00', to: '24:00' },
        ],
      ]),
    ),
  }),
  targets: { low: { first_response: 30, next_response: 45, resolution: 300 }, high: { resolution: 60 } },
  pausingStatuses: ['scheduled'],
  warnings: [50],
};
const randomResolve: PolicyResolver = (sla) => ({ basic, premium, night })[sla as 'basic'] ?? null;
const historyArb = fc.record({
  // Around the spring DST change and a year end, Amsterdam time.
  start: fc.constantFrom(at('2026-03-27T10:00:00Z'), at('2026-12-30T16:00:00Z'), at('2026-10-24T21:00:00Z')),
  priority: fc.constantFrom('high', 'normal', 'low'),
  sla: fc.constantFrom('basic', 'premium', 'night', null),
  steps: fc.array(fc.tuple(fc.integer({ min: -30, max: 300 }), eventArb), { maxLength: 30 }),
  now: fc.integer({ min: 0, max: 3000 }),
});
type History = typeof historyArb extends fc.Arbitrary<infer T> ? T : never;
function historyOf(h: History) {
  let time = h.start;
  const events: ClockEvent[] = [
    { type: 'created', at: time, status: 'open', priority: h.priority, sla: h.sla },
  ];
  for (const [gap, event] of h.steps) {
    time += gap * 60_000;
    events.push({ ...event, at: time } as ClockEvent);
  }
  return { events, now: time + h.now * 60_000 };
}

describe('the clock, for any history', () => {
  it('a stored fold fed the remaining events measures the same as the full recompute', () => {
    fc.assert(
      fc.property(historyArb, fc.nat(), (h, cut) => {
        const { events, now } = historyOf(h);
        const k = cut % (events.length + 1);
        const stored = JSON.parse(JSON.stringify(foldClock(events.slice(0, k))));
        const before = JSON.stringify(stored);
        let state = stored;
        for (const event of events.slice(k)) state = advanceClock(state, event);
        expect(JSON.stringify(stored)).toBe(before); // advanceClock left the stored state alone
        expect(measureClock(state, randomResolve, now)).toEqual(computeClock(events, randomResolve, now));
        expect(foldClock([])).toEqual(EMPTY_CLOCK);
      }),
      { numRuns: 300 },
    );
  });

  it('a running target is breached exactly at its due, and its state changes first at nextChangeAt', () => {
    fc.assert(
      fc.property(historyArb, (h) => {
        const { events, now } = historyOf(h);
        const result = computeClock(events, randomResolve, now);
        for (const name of ['first_response', 'next_response', 'resolution'] as const) {
          const target = result[name];
          if (!target || (target.state !== 'running' && target.state !== 'warning') || target.due === null)
            continue;
          const atDue = computeClock(events, randomResolve, target.due)[name]!;
          expect(atDue.state).toBe('breached');
          expect(atDue.breachedAt).toBe(target.due);
          expect(computeClock(events, randomResolve, target.due - 1)[name]!.state).not.toBe('breached');
          const change = target.nextChangeAt!;
          expect(change).toBeLessThanOrEqual(target.due);
          const before = computeClock(events, randomResolve, change - 1)[name]!;
          expect([before.state, before.threshold]).toEqual([target.state, target.threshold]);
          const after = computeClock(events, randomResolve, change)[name]!;
          expect([after.state, after.threshold]).not.toEqual([target.state, target.threshold]);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('elapsed resolution time is a minute-by-minute count of open, unpaused working minutes', () => {
    fc.assert(
      fc.property(historyArb, (h) => {
        const { events, now } = historyOf(h);
        const result = computeClock(events, randomResolve, now);
        const state = foldClock(events);
        const policy = state.sla === null ? null : randomResolve(state.sla);
        const calendar: Calendar = policy?.calendar ?? toCalendar({ schedule: '24/7', timezone: 'UTC' });
        const pausing = new Set(policy?.pausingStatuses ?? ['waiting_for_reply', 'scheduled']);
        const statusAt = (t: number) => state.statuses.filter(([from]) => from <= t).at(-1)?.[1] ?? '';
        const end = Math.max(now, state.lastAt ?? now);
        let minutes = 0;
        for (const w of state.resolution) {
          for (let t = w.start; t < Math.min(w.end ?? Infinity, end); t += 60_000) {
            if (!pausing.has(statusAt(t)) && isWorking(calendar, t)) minutes++;
          }
        }
        expect(result.resolution!.elapsed).toBe(minutes);
        for (const target of [result.first_response, result.next_response, result.resolution]) {
          if (!target) continue;
          if (target.target !== null) expect(target.remaining).toBe(target.target - target.elapsed);
          expect(target.state === 'breached').toBe(target.breachedAt !== null);
          const counting = target.state === 'running' || target.state === 'warning';
          if (counting && target.target !== null) expect(target.due!).toBeGreaterThan(end);
          if (target.paused) expect(['paused', 'breached']).toContain(target.state);
        }
      }),
      { numRuns: 120 },
    );
  });
});
