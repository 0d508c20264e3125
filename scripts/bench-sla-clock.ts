/**
 * How long one full recompute of the SLA clock takes for a ticket with 100 recorded events (issue 35
 * asks for at most 5 ms). A number to read, not a test: tests assert mechanisms, not times.
 *
 *   npx tsx scripts/bench-sla-clock.ts [runs]
 *
 * The history spans about seven weeks of office hours with a lunch break in Amsterdam, over the autumn
 * DST change, with holidays, pauses, client and operator replies, priority and SLA changes, solves and
 * reopenings. The first run includes filling the zone-offset memo; the others are a server's steady state.
 */
import { toCalendar, WEEKDAYS } from '../common/sla/calendar.ts';
import { type ClockEvent, type PolicyResolver, computeClock } from '../common/sla/clock.ts';

const office = toCalendar({
  schedule: Object.fromEntries(
    WEEKDAYS.slice(0, 5).map((day) => [
      day,
      [
        { from: '08:00', to: '12:00' },
        { from: '13:00', to: '17:30' },
      ],
    ]),
  ),
  holidays: [
    { date: '12-25', name: 'Christmas' },
    { date: '2026-11-11', name: 'Company day' },
  ],
});
const targets = {
  high: { first_response: 60, next_response: 120, resolution: 960 },
  normal: { first_response: 240, next_response: 480, resolution: 4800 },
};
const policies = {
  basic: { calendar: office, targets, warnings: [75, 90] },
  premium: { calendar: toCalendar({ schedule: '24/7' }), targets, warnings: [75, 90] },
};
const resolve: PolicyResolver = (sla) => policies[sla as keyof typeof policies] ?? null;

/** An event without its time (Omit on each member of the union: Omit on the union would drop the fields). */
type Untimed = ClockEvent extends infer E ? (E extends ClockEvent ? Omit<E, 'at'> : never) : never;

function history(): ClockEvent[] {
  let at = Date.parse('2026-10-12T07:00:00Z');
  const events: ClockEvent[] = [{ type: 'created', at, status: 'open', priority: 'normal', sla: 'basic' }];
  const cycle: Untimed[] = [
    { type: 'public_operator_reply' },
    { type: 'status_changed', status: 'waiting_for_reply' },
    { type: 'client_reply' },
    { type: 'status_changed', status: 'open' },
    { type: 'priority_changed', priority: 'high' },
    { type: 'public_operator_reply' },
    { type: 'status_changed', status: 'scheduled' },
    { type: 'status_changed', status: 'open' },
    { type: 'solved' },
    { type: 'reopened' },
    { type: 'client_reply' },
    { type: 'sla_changed', sla: 'premium' },
    { type: 'priority_changed', priority: 'normal' },
    { type: 'sla_changed', sla: 'basic' },
  ];
  for (let i = 1; i < 100; i++) {
    at += (3 + ((i * 37) % 11)) * 3_600_000 + ((i * 13) % 60) * 60_000; // 3 to 13 hours apart
    events.push({ ...cycle[i % cycle.length], at } as ClockEvent);
  }
  return events;
}

const runs = Number(process.argv[2] ?? 2000);
const events = history();
const now = events[events.length - 1]!.at + 3_600_000;

let started = performance.now();
const first = computeClock(events, resolve, now);
const cold = performance.now() - started;

started = performance.now();
for (let i = 0; i < runs; i++) computeClock(events, resolve, now);
const warm = (performance.now() - started) / runs;

const span = (now - events[0]!.at) / 86_400_000;
console.log(`SLA clock, ${events.length} events over ${span.toFixed(0)} days:`);
console.log(`  first recompute (empty offset memo): ${cold.toFixed(3)} ms`);
console.log(`  per recompute, mean of ${runs}: ${warm.toFixed(3)} ms`);
console.log(
  `  resolution: ${first.resolution?.state}, ${first.resolution?.elapsed} of ${first.resolution?.target} min`,
);
