/**
 * Which period a subscription's mail covers (issue 36, item 4): weekly, the previous ISO week (Monday to
 * Sunday) once Monday SEND_HOUR has come; monthly, the previous calendar month once the 1st SEND_HOUR
 * has come; days and hours in the desk's zone, as the reports count days (server/reports/figures.ts).
 * Only the latest such period is ever due: a service that was down for three weeks sends the last
 * week once when it is back, not each week it missed.
 */
import { DateTime } from 'luxon';
import { DEFAULT_TIME_ZONE } from '../../../common/sla/calendar.ts';
import type { Frequency } from '../../../common/report-subscriptions.ts';

/** The hour of the morning (desk's zone) from which a period just ended is sent. */
export const SEND_HOUR = 6;

export interface ReportPeriod {
  /** First and last day, inclusive (YYYY-MM-DD). */
  from: string;
  to: string;
  /** The moment it ended (midnight after its last day): a subscription made later waits for the next. */
  end: Date;
}

const UNIT = { weekly: 'week', monthly: 'month' } as const;

/** The latest period of `frequency` whose mail may go at `now` (epoch ms). */
export function latestPeriod(frequency: Frequency, now: number): ReportPeriod {
  const unit = UNIT[frequency];
  const local = DateTime.fromMillis(now, { zone: DEFAULT_TIME_ZONE });
  // Luxon's weeks are ISO weeks: they start on Monday.
  let end = local.startOf(unit);
  if (local < end.plus({ hours: SEND_HOUR })) end = end.minus({ [unit]: 1 }).startOf(unit);
  const start = end.minus({ [unit]: 1 }).startOf(unit);
  return {
    from: start.toISODate()!,
    to: end.minus({ days: 1 }).toISODate()!,
    end: end.toJSDate(),
  };
}
