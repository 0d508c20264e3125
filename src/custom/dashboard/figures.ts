/**
 * What each dashboard figure opens: the ticket list's filter state (../list/filters.ts) that selects
 * exactly the tickets the server counted for it (../../../common/dashboard.ts). Whose tickets is the
 * operator filter (nobody's: the '(none)' option); which is the status filter with the answer's status
 * ids, and for the day figures the deadline or creation filter's own 'today' and 'past' presets, the
 * day the figures were asked for; the SLA figures the SLA state filter and the next SLA due's 'within'
 * preset (issue 35).
 */
import {
  SLA_SOON_MS,
  type DashboardAnswer,
  type DashboardCount,
  type DashboardRow,
} from '../../../common/dashboard.ts';
import type { FilterState } from '../list/filters.ts';
import { dateCondition } from '../list/filters.ts';

/** The list the figures open. */
export const TICKETS_PATH = '/tickets';

/** The caller's day as the list's 'today' filter means it (local midnight to 23:59:59.999). */
export function todayBounds(now: Date): { from: string; to: string } {
  const today = dateCondition({ preset: 'today' }, now);
  if (today?.op !== 'between') throw new Error('today is an interval');
  return { from: today.from.toISOString(), to: today.to.toISOString() };
}

/**
 * The filter state of a figure, or undefined when no filter can say it: a line with no operators in it,
 * or a kind of status the tenant has none of (the figure is then 0 and shown without a link).
 */
export function figureFilter(
  answer: Pick<DashboardAnswer, 'statuses'>,
  row: Pick<DashboardRow, 'operator_ids'>,
  count: DashboardCount,
): FilterState | undefined {
  if (row.operator_ids !== null && row.operator_ids.length === 0) return undefined;
  const whose: FilterState = { operator_id: row.operator_ids ?? [null] };
  const { open, waiting, got_reply } = answer.statuses;
  const which: Record<DashboardCount, FilterState> = {
    open: { status_id: open },
    overdue: { status_id: open, deadline: { preset: 'past' } },
    due_today: { status_id: open, deadline: { preset: 'today' } },
    waiting: { status_id: waiting },
    got_reply: { status_id: got_reply },
    new_today: { created_at: { preset: 'today' } },
    // The ticket list's SLA views (schemas/tickets.json x-views), as the server counts them.
    sla_breached: { status_id: open, sla_state: ['breached'] },
    sla_within_hour: {
      status_id: open,
      sla_due: { preset: 'lte', value: SLA_SOON_MS / 3600_000, unit: 'hours' },
    },
  };
  const filter = which[count];
  const statuses = filter.status_id as number[] | undefined;
  if (statuses && statuses.length === 0) return undefined;
  return { ...whose, ...filter };
}
