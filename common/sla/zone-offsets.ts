/**
 * A time zone's UTC offset at an instant, and the instant of a wall-clock time, for the SLA calendar
 * (common/sla/calendar.ts). luxon reads the offsets from Intl (the IANA database the runtime carries),
 * which costs about 20 µs a call: far too much for a clock that asks for hundreds of offsets per ticket.
 * So the offsets are kept per zone and per UTC week: a week whose two ends have the same offset has it
 * throughout, and a week whose ends differ has one change, found once by bisection to the second.
 *
 * The assumption is that a zone changes its offset at most once within seven days. No zone of the
 * IANA database has done so since 1970 outside a few one-off corrections; the worst case is a wrong
 * offset for part of one such week, never a wrong answer elsewhere.
 *
 * The memo is module state but no behaviour: the same question always gets the same answer, with or
 * without it, so the functions stay pure for their callers (server and browser alike).
 */
import { IANAZone } from 'luxon';

const MINUTE = 60_000;
const WEEK = 7 * 86_400_000;
/** Above this many weeks remembered for one zone, the memo starts again (a bound, not a tuning). */
const MAX_WEEKS = 20_000;

/** One UTC week of a zone: the offset (minutes) from its start, and the change within it if any. */
interface WeekOffsets {
  readonly before: number;
  readonly after: number;
  /** The first instant (ms) with the `after` offset; Infinity when the week has one offset. */
  readonly change: number;
}

interface ZoneMemo {
  readonly zone: IANAZone;
  readonly weeks: Map<number, WeekOffsets>;
}

const memos = new Map<string, ZoneMemo>();

function memoOf(zoneName: string): ZoneMemo {
  let memo = memos.get(zoneName);
  if (!memo) {
    const zone = IANAZone.create(zoneName);
    if (!zone.isValid) throw new Error(`Unknown time zone ${zoneName}`);
    memo = { zone, weeks: new Map() };
    memos.set(zoneName, memo);
  }
  return memo;
}

function weekOffsets(memo: ZoneMemo, week: number): WeekOffsets {
  let entry = memo.weeks.get(week);
  if (entry) return entry;
  const start = week * WEEK;
  const before = memo.zone.offset(start);
  const after = memo.zone.offset(start + WEEK);
  let change = Infinity;
  if (before !== after) {
    // The first second with the new offset: bisection over the week, about 20 calls, twice a year.
    let lo = start;
    let hi = start + WEEK;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (memo.zone.offset(mid) === before) lo = mid;
      else hi = mid;
    }
    change = hi;
  }
  entry = { before, after, change };
  if (memo.weeks.size >= MAX_WEEKS) memo.weeks.clear();
  memo.weeks.set(week, entry);
  return entry;
}

/** The zone's offset from UTC in minutes at `instant` (ms). */
export function offsetAt(zoneName: string, instant: number): number {
  const entry = weekOffsets(memoOf(zoneName), Math.floor(instant / WEEK));
  return instant < entry.change ? entry.before : entry.after;
}

/**
 * The instant (ms) at which the zone's clocks show `wall` (the wall-clock time written as if it were
 * UTC ms). A time shown twice (the autumn hour) is its first occurrence; a time never shown (the spring
 * gap) is the instant the clocks jump over it. So the map from wall time to instant never goes back,
 * and an interval's length is the real time it covers: 01:00-04:00 is 120 minutes on the last Sunday
 * of March in Amsterdam and 240 on the last Sunday of October.
 */
export function instantOfWall(zoneName: string, wall: number): number {
  const early = offsetAt(zoneName, wall - 86_400_000);
  const late = offsetAt(zoneName, wall + 86_400_000);
  const a = wall - early * MINUTE;
  const b = wall - late * MINUTE;
  const aShown = offsetAt(zoneName, a) === early;
  const bShown = offsetAt(zoneName, b) === late;
  if (aShown && bShown) return Math.min(a, b);
  if (aShown) return a;
  if (bShown) return b;
  // In the gap: the first instant whose wall time is at or past `wall`, bisected to the millisecond.
  let lo = Math.min(a, b);
  let hi = Math.max(a, b);
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (mid + offsetAt(zoneName, mid) * MINUTE >= wall) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Whether the zone's offset changes anywhere in [from, to] (ms), as far as the weekly memo tells. */
export function offsetChangesBetween(zoneName: string, from: number, to: number): boolean {
  const memo = memoOf(zoneName);
  const first = Math.floor(from / WEEK);
  const last = Math.floor(to / WEEK);
  const start = weekOffsets(memo, first).before;
  for (let week = first; week <= last; week++) {
    const entry = weekOffsets(memo, week);
    if (entry.before !== start || entry.after !== start) return true;
  }
  return false;
}
