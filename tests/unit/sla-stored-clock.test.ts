/**
 * The SLA clock as stored on the ticket (server/sla/stored-clock.ts): for random histories, calendars
 * and moments, the stored columns measured at one moment stay what a full recompute gives at any later
 * moment before `sla_recheck_at` (so a ticket nobody touches needs no look before then), and a paused
 * or finished ticket's stay true for good. Without an SLA nothing is promised, so nothing is stored.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WEEKDAYS, toCalendar } from '../../common/sla/calendar.ts';
import {
  type ClockEvent,
  type PolicyResolver,
  type SlaPolicy,
  computeClock,
} from '../../common/sla/clock.ts';
import { storedClock } from '../../server/sla/stored-clock.ts';

const MIN = 60_000;
const office: SlaPolicy = {
  calendar: toCalendar({
    schedule: Object.fromEntries(
      WEEKDAYS.slice(0, 5).map((d) => [
        d,
        [
          { from: '08:00', to: '12:00' },
          { from: '13:00', to: '17:30' },
        ],
      ]),
    ),
    holidays: [{ date: '12-25', name: 'Christmas' }],
  }),
  targets: { high: { first_response: 60, next_response: 120, resolution: 480 }, normal: { resolution: 960 } },
  warnings: [75, 90],
};
const always: SlaPolicy = {
  calendar: toCalendar({ schedule: '24/7' }),
  targets: {
    high: { first_response: 30, resolution: 240 },
    normal: { first_response: 90, next_response: 60 },
  },
  pausingStatuses: ['scheduled'],
  warnings: [50],
};
const resolve: PolicyResolver = (sla) => ({ office, always })[sla as 'office'] ?? null;
const applied = (sla: string | null) => (sla === null ? null : { slaId: 1, source: 'ticket' as const });

const eventArb = fc.oneof(
  fc.constant({ type: 'public_operator_reply' as const }),
  fc.constant({ type: 'client_reply' as const }),
  fc
    .constantFrom('open', 'waiting_for_reply', 'scheduled')
    .map((status) => ({ type: 'status_changed' as const, status })),
  fc.constantFrom('high', 'normal').map((priority) => ({ type: 'priority_changed' as const, priority })),
  fc.constant({ type: 'reopened' as const }),
  fc.constant({ type: 'solved' as const }),
);
const historyArb = fc.record({
  start: fc.constantFrom(Date.parse('2026-03-27T10:00:00Z'), Date.parse('2026-12-23T15:00:00Z')),
  sla: fc.constantFrom('office', 'always'),
  priority: fc.constantFrom('high', 'normal'),
  steps: fc.array(fc.tuple(fc.integer({ min: 0, max: 240 }), eventArb), { maxLength: 12 }),
  now: fc.integer({ min: 0, max: 2000 }),
  later: fc.double({ min: 0, max: 1, noNaN: true }),
});

describe('the stored clock, for any history', () => {
  it('stays what a recompute gives until sla_recheck_at, and for good when nothing is counting', () => {
    fc.assert(
      fc.property(historyArb, (h) => {
        let time = h.start;
        const events: ClockEvent[] = [
          { type: 'created', at: time, status: 'open', priority: h.priority, sla: h.sla },
        ];
        for (const [gap, event] of h.steps) {
          time += gap * MIN;
          events.push({ ...event, at: time } as ClockEvent);
        }
        const now = time + h.now * MIN;
        const stored = storedClock(applied(h.sla), computeClock(events, resolve, now));
        const recheck = stored.sla_recheck_at?.getTime() ?? now + 30 * 24 * 60 * MIN;
        const later = Math.floor(now + (recheck - now) * h.later * 0.999);
        expect(storedClock(applied(h.sla), computeClock(events, resolve, later))).toEqual(stored);
        if (stored.sla_recheck_at) {
          expect(stored.sla_recheck_at.getTime()).toBeGreaterThan(now);
          const at = storedClock(applied(h.sla), computeClock(events, resolve, recheck));
          // At the moment itself a target reaches a threshold or its due: a state or the soonest due changes.
          expect(at.sla_recheck_at).not.toEqual(stored.sla_recheck_at);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stores nothing without an SLA, however the ticket went', () => {
    fc.assert(
      fc.property(historyArb, (h) => {
        const events: ClockEvent[] = [
          { type: 'created', at: h.start, status: 'open', priority: h.priority, sla: null },
        ];
        const stored = storedClock(null, computeClock(events, resolve, h.start + h.now * MIN));
        const { reopened_at, ...rest } = stored;
        expect(Object.values(rest).every((v) => v === null)).toBe(true);
        expect(reopened_at).toEqual([]);
      }),
    );
  });
});
