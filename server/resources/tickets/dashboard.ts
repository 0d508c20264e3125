/**
 * GET /api/dashboard: the operator's start page (issue 18), one statement whatever the number of
 * tickets. Open, waiting, replied and the overdue tickets of earlier months come from the summary table
 * tickets_counts_by_operator_status (migration 0024: per operator, status and UTC month of the deadline);
 * overdue this month and due today from an index-only scan of the open tickets' deadlines since the
 * start of the month (or of the day asked for, if earlier); new today from one of today's tickets. The
 * table of figures is put together here (../../../common/dashboard.ts says what each means). Operators
 * with tenant.tickets.index only: clients get 403.
 *
 * "Today" is the caller's day: the back office sends the start and end of the user's local day, the
 * bounds its ticket list's "today" filter uses, so a figure and the list it opens agree. Without them,
 * today is the current UTC day.
 */
import { sql } from 'kysely';
import type { AuthContext } from '../../auth/context.ts';
import { forbidden, ValidationError } from '../../http/errors.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInputWith } from '../../http/route-validation.ts';
import { actionRoute, OPERATORS_ONLY } from '../../docs/action-schema.ts';
import type { Schema } from '../../docs/refs.ts';
import {
  DASHBOARD_COUNTS,
  DASHBOARD_ROWS,
  LINE_OF_ROW,
  SLA_SOON_MS,
  STATUS_TYPES,
  type DashboardAnswer,
  type DashboardCount,
  type DashboardRow,
} from '../../../common/dashboard.ts';
import type { Db } from '../../db/database.ts';
import { serverText } from '../../../common/server-texts.ts';

/** A day is 23 to 25 hours long where clocks change; more than two is not a day. */
const MAX_DAY_MS = 48 * 3600 * 1000;

const COUNTS_SCHEMA: Schema = {
  type: 'object',
  required: [...DASHBOARD_COUNTS],
  properties: Object.fromEntries(DASHBOARD_COUNTS.map((c) => [c, { type: 'integer', minimum: 0 }])),
};
const IDS: Schema = { type: 'array', items: { type: 'integer' } };

const ANSWER_SCHEMA: Schema = {
  type: 'object',
  required: ['today', 'statuses', 'rows'],
  properties: {
    today: {
      type: 'object',
      required: ['from', 'to'],
      properties: {
        from: { type: 'string', format: 'date-time' },
        to: { type: 'string', format: 'date-time' },
      },
    },
    statuses: {
      type: 'object',
      description: 'The status ids each kind of figure filters on (open: neither closed nor archived).',
      required: ['open', 'waiting', 'got_reply'],
      properties: { open: IDS, waiting: IDS, got_reply: IDS },
    },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'operator_ids', 'counts'],
        properties: {
          key: { type: 'string', enum: [...DASHBOARD_ROWS] },
          operator_ids: { type: ['array', 'null'], items: { type: 'integer' } },
          counts: COUNTS_SCHEMA,
        },
      },
    },
  },
};

interface DayQuery {
  from?: string;
  to?: string;
}

/**
 * A day bound: a date and time as ISO 8601 writes it, with or without a zone (without one, the server's
 * own time), each failure in the one line the app matches. The pattern keeps out what `iso-date-time`
 * takes but JavaScript's Date cannot read (a leap second, an offset of hours only).
 */
const dayBound = (name: 'from' | 'to', description: string) => ({
  type: 'string',
  format: 'iso-date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:[0-5]\\d(?:\\.\\d+)?(?:[zZ]|[+-]\\d{2}:?\\d{2})?$',
  description,
  'x-error': serverText('day_bound_invalid', { name }),
});

/** By hand: `from` and `to` both or neither (two fields together); the missing one is named. */
function bothOrNeither({ from, to }: DayQuery): Record<string, string[]> {
  if ((from === undefined) === (to === undefined)) return {};
  const name = from === undefined ? 'from' : 'to';
  return { [name]: [serverText('day_bound_invalid', { name })] };
}

/**
 * The day asked for, of a query that its schema and bothOrNeither have checked (no day: the current UTC
 * day). By hand: at most a day from the one to the other (two fields together).
 */
export function dayOf({ from, to }: DayQuery, now = new Date()): { from: Date; to: Date } {
  if (from === undefined || to === undefined) {
    const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    return { from: new Date(start), to: new Date(start + 24 * 3600 * 1000 - 1) };
  }
  const day = { from: new Date(from), to: new Date(to) };
  const span = day.to.getTime() - day.from.getTime();
  if (span < 0 || span > MAX_DAY_MS) {
    throw new ValidationError({ to: [serverText('day_invalid')] });
  }
  return day;
}

/** One row of the statement: what it is (kind) and up to three figures. */
interface Part {
  kind: 'status' | 'operator' | 'held' | 'due' | 'fresh' | 'breached' | 'soon';
  id: number | null;
  a: number;
  b: number | null;
  c: number | null;
}

async function countParts(db: Db, auth: AuthContext, day: { from: Date; to: Date }): Promise<Part[]> {
  const { closed, archived } = STATUS_TYPES;
  const soonUntil = new Date(Date.now() + SLA_SOON_MS);
  // Deadlines before this UTC month are counted in the summary, the rest in tickets' deadline index.
  const { rows } = await sql<Part>`
    with statuses as (
      select id, internal_type from ticket_statuses where tenant_id = ${auth.tenantId}
    ), month as (
      select date_trunc('month', now() at time zone 'UTC') as start
    ), held as (
      select operator_id, status_id, sum(n)::int as n,
        coalesce(sum(n) filter (where deadline_month < (select start from month)), 0)::int as overdue
      from tickets_counts_by_operator_status
      where tenant_id = ${auth.tenantId} and not is_template and n <> 0
      group by operator_id, status_id
    ), due as (
      select t.operator_id,
        count(*) filter (where t.deadline >= (select start at time zone 'UTC' from month)
          and t.deadline < now())::int as overdue,
        count(*) filter (where t.deadline >= ${day.from} and t.deadline <= ${day.to})::int as due_today
      from statuses s
      join tickets t on t.tenant_id = ${auth.tenantId} and t.status_id = s.id and not t.is_template
        and t.deadline >= least((select start at time zone 'UTC' from month), ${day.from}::timestamptz)
        and t.deadline <= greatest(now(), ${day.to}::timestamptz)
      where s.internal_type not in (${closed}, ${archived})
      group by t.operator_id
    ), open_statuses as (
      select id from statuses where internal_type not in (${closed}, ${archived})
    ), breached as (
      -- tickets_open_sla_breached_idx (0032): the open breached tickets only, not the history's.
      select operator_id, count(*)::int as n from tickets
      where tenant_id = ${auth.tenantId} and sla_state = 'breached' and resolved_at is null
        and not is_template and status_id in (select id from open_statuses)
      group by operator_id
    ), soon as (
      -- tickets_sla_due_idx (0031): sla_due is set only while a target is in time.
      select operator_id, count(*)::int as n from tickets
      where tenant_id = ${auth.tenantId} and sla_due <= ${soonUntil}
        and not is_template and status_id in (select id from open_statuses)
      group by operator_id
    ), fresh as (
      select operator_id, count(*)::int as n from tickets
      where tenant_id = ${auth.tenantId} and not is_template
        and created_at >= ${day.from} and created_at <= ${day.to}
      group by operator_id
    )
    select 'status' as kind, id, internal_type as a, null::int as b, null::int as c from statuses
    union all
    select 'operator', id, is_operator, null, null from users
      where tenant_id = ${auth.tenantId} and is_staff and is_operator in (1, 2)
    union all select 'held', operator_id, status_id, n, overdue from held
    union all select 'due', operator_id, overdue, due_today, null from due
    union all select 'fresh', operator_id, n, null, null from fresh
    union all select 'breached', operator_id, n, null, null from breached
    union all select 'soon', operator_id, n, null, null from soon`.execute(db);
  return rows.map((r) => ({
    kind: r.kind,
    id: r.id === null ? null : Number(r.id),
    a: Number(r.a),
    b: r.b === null ? null : Number(r.b),
    c: r.c === null ? null : Number(r.c),
  }));
}

/** The table of figures from the statement's parts. */
export function dashboardOf(parts: Part[], me: number, day: { from: Date; to: Date }): DashboardAnswer {
  const typeOf = new Map<number, number>();
  const lineOf = new Map<number, number>();
  for (const p of parts) {
    if (p.kind === 'status') typeOf.set(p.id!, p.a);
    if (p.kind === 'operator') lineOf.set(p.id!, p.a);
  }
  const isOpen = (status: number) => {
    const type = typeOf.get(status);
    return type !== STATUS_TYPES.closed && type !== STATUS_TYPES.archived;
  };
  const rows: DashboardRow[] = DASHBOARD_ROWS.map((key) => {
    const line = LINE_OF_ROW[key];
    const operatorIds =
      key === 'mine'
        ? [me]
        : key === 'unassigned'
          ? null
          : [...lineOf]
              .filter(([, l]) => l === line)
              .map(([id]) => id)
              .sort((a, b) => a - b);
    const counts = Object.fromEntries(DASHBOARD_COUNTS.map((c) => [c, 0])) as Record<DashboardCount, number>;
    return { key, operator_ids: operatorIds, counts };
  });
  /** The rows a ticket of this operator (null: nobody) counts in. */
  const rowsOf = (operator: number | null) =>
    rows.filter((r) =>
      r.operator_ids === null ? operator === null : operator !== null && r.operator_ids.includes(operator),
    );
  for (const p of parts) {
    for (const row of p.kind === 'status' || p.kind === 'operator' ? [] : rowsOf(p.id)) {
      const { counts } = row;
      if (p.kind === 'held') {
        if (isOpen(p.a)) {
          counts.open += p.b!;
          counts.overdue += p.c!;
        }
        if (typeOf.get(p.a) === STATUS_TYPES.waiting_for_reply) counts.waiting += p.b!;
        if (typeOf.get(p.a) === STATUS_TYPES.got_reply) counts.got_reply += p.b!;
      } else if (p.kind === 'due') {
        counts.overdue += p.a;
        counts.due_today += p.b!;
      } else if (p.kind === 'breached') {
        counts.sla_breached += p.a;
      } else if (p.kind === 'soon') {
        counts.sla_within_hour += p.a;
      } else {
        counts.new_today += p.a;
      }
    }
  }
  const statusesOf = (test: (type: number) => boolean) =>
    [...typeOf]
      .filter(([, type]) => test(type))
      .map(([id]) => id)
      .sort((a, b) => a - b);
  return {
    today: { from: day.from.toISOString(), to: day.to.toISOString() },
    statuses: {
      open: statusesOf((type) => type !== STATUS_TYPES.closed && type !== STATUS_TYPES.archived),
      waiting: statusesOf((type) => type === STATUS_TYPES.waiting_for_reply),
      got_reply: statusesOf((type) => type === STATUS_TYPES.got_reply),
    },
    rows,
  };
}

export const ticketDashboard: ActionPlugin = async (app, { db, registry }) => {
  const tickets = registry.require('tickets');

  app.get(
    '/api/dashboard',
    actionRoute({
      tag: tickets.name,
      operationId: 'ticketsDashboard',
      summary: "The operator's dashboard: ticket figures per person, nobody and operator line",
      description:
        'Rows: the caller (`mine`), nobody (`unassigned`), the operators of each line (`first_line`, ' +
        '`second_line`). Columns: open (a status neither closed nor archived), overdue (open, deadline ' +
        'past), due today (open, deadline today), waiting for the client (internal type 4), client ' +
        'replied (5), new today (created today, any status), SLA breached (open, the stored SLA state ' +
        'breached), SLA within an hour (open, a target in time due within the hour). ' +
        "`from` and `to` give the caller's day " +
        '(both or neither; default the current UTC day). Each row names its operators and the answer ' +
        'the status ids, so a figure opens as the ticket list filtered on them. Permission ' +
        `\`tenant.tickets.index\`. ${OPERATORS_ONLY}`,
      params: false,
      query: {
        from: dayBound('from', "The start of the caller's day."),
        to: dayBound('to', "The end of the caller's day (included)."),
      },
      answers: { 200: { description: 'The figures.', schema: ANSWER_SCHEMA } },
      errors: [401, 403, 422, 503],
    }),
    async (request) => {
      const auth = await authorize(request, tickets, 'index');
      if (auth.kind !== 'operator' || auth.userId === null) throw forbidden();
      const query = request.query as DayQuery;
      // by hand: from and to both or neither, and at most a day apart (two fields together).
      validInputWith(request, bothOrNeither(query));
      const day = dayOf(query);
      return dashboardOf(await countParts(db, auth, day), auth.userId, day);
    },
  );
};
