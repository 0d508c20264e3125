/**
 * The operator's dashboard (issue 18): what GET /api/dashboard answers and what each figure means, in
 * one place for the server that counts and the back office that shows each figure as a link to the
 * ticket list filtered to exactly those tickets.
 *
 * A figure is a cell of a table: a row says whose tickets (mine, nobody's, a line's operators), a column
 * which (open, overdue, …). "Open" is every status whose internal type (SPEC 3) is neither closed (2)
 * nor archived (3); overdue and due today are open tickets by deadline; new today counts every status.
 * The SLA figures (issue 35) read the clock stored on each ticket: SLA breached counts open tickets whose
 * worst target is breached, SLA within an hour open tickets with a target still in time due within the
 * hour (or just past it, before the background pass marks it breached), the ticket list's views of the
 * same names (schemas/tickets.json x-views sla_breached, sla_within_1h).
 */

/** SPEC 3 ticket status internal types the dashboard names. */
export const STATUS_TYPES = { closed: 2, archived: 3, waiting_for_reply: 4, got_reply: 5 } as const;

/** The columns, in the order shown. */
export const DASHBOARD_COUNTS = [
  'open',
  'overdue',
  'due_today',
  'waiting',
  'got_reply',
  'new_today',
  'sla_breached',
  'sla_within_hour',
] as const;
export type DashboardCount = (typeof DASHBOARD_COUNTS)[number];

/** What "within the hour" means for the SLA figure (the list's view: now plus one hour). */
export const SLA_SOON_MS = 3600 * 1000;

/** The rows, in the order shown: the caller's, nobody's, then each operator line's (SPEC 6: 1, 2). */
export const DASHBOARD_ROWS = ['mine', 'unassigned', 'first_line', 'second_line'] as const;
export type DashboardRowKey = (typeof DASHBOARD_ROWS)[number];

/** The operator line (SPEC 3 is_operator) of a line row. */
export const LINE_OF_ROW: Partial<Record<DashboardRowKey, 1 | 2>> = { first_line: 1, second_line: 2 };

export interface DashboardRow {
  key: DashboardRowKey;
  /** Whose tickets: these operators' (a line with nobody in it: none), or null for nobody's. */
  operator_ids: number[] | null;
  counts: Record<DashboardCount, number>;
}

export interface DashboardAnswer {
  /** The day "today" means, as asked for (ISO 8601, both ends included). */
  today: { from: string; to: string };
  /** The status ids of each kind of status a figure filters on. */
  statuses: { open: number[]; waiting: number[]; got_reply: number[] };
  rows: DashboardRow[];
}
