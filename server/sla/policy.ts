/**
 * Which SLA governs a ticket, and that SLA as the clock reads it (issue 35, item 2).
 *
 * The SLA that applies, first found: the ticket's own; else its company's contract's (a contract of the
 * company running today that names an SLA, the latest started); else the company's; else the tenant's
 * default (the setting `default_sla_id`). `source` says which, for the ticket to show why.
 *
 * A policy: the SLA's calendar (its business-hour contract; none, or one stored before calendars were
 * checked, counts real time all day), its targets per priority (a priority's row of sla_targets, else
 * the SLA's own three times), the statuses that pause it (ticket_statuses.pauses_sla) and its warnings.
 */
import { ALWAYS_OPEN, toCalendar, type Calendar } from '../../common/sla/calendar.ts';
import type { SlaPolicy, TargetName } from '../../common/sla/clock.ts';
import { sql, type ExpressionBuilder, type Nullable } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Db, DbTransaction } from '../db/database.ts';
import type { Tables } from '../db/tables.ts';

export type SlaSource = 'ticket' | 'contract' | 'company' | 'tenant';

/** The tenant setting naming the SLA of tickets that get none otherwise. */
export const DEFAULT_SLA_SETTING = 'default_sla_id';

type Reader = Db | DbTransaction;

/** The clock's priority key of a ticket without a priority. */
export const NO_PRIORITY = '';

export interface AppliedSla {
  slaId: number;
  source: SlaSource;
}

/**
 * The SLA that applies to a ticket and why; null when none does (or the ticket is not the tenant's).
 * `fallback`: the one that would apply if the ticket named none of its own (its history's SLA-less
 * stretches are measured with it).
 */
export async function appliedSla(
  db: Reader,
  tenantId: number,
  ticketId: number,
  today: string,
  { fallback = false } = {},
): Promise<AppliedSla | null> {
  const both = await appliedSlas(db, tenantId, ticketId, today);
  return (fallback ? both?.fallback : both?.applied) ?? null;
}

/** Both answers of `appliedSla` at once: one statement. */
export async function appliedSlas(
  db: Reader,
  tenantId: number,
  ticketId: number,
  today: string,
): Promise<AppliedSlas | null> {
  const row = await db
    .selectFrom('tickets as t')
    .leftJoin('companies as c', (join) =>
      join.onRef('c.id', '=', 't.company_id').on('c.tenant_id', '=', tenantId),
    )
    .select((eb) => appliedSlaColumns(eb, tenantId, today))
    .where('t.tenant_id', '=', tenantId)
    .where('t.id', '=', ticketId)
    .executeTakeFirst();
  return row ? appliedFrom(row) : null;
}

/** `tickets as t` left-joined to its company as `c`. */
type TicketAndCompany = Tables & { t: Tables['tickets']; c: Nullable<Tables['companies']> };

export interface AppliedSlas {
  applied: AppliedSla | null;
  fallback: AppliedSla | null;
  /** The next date (the tenant's) a contract's SLA may start or stop applying; null when none will. */
  contractChange: string | null;
}

/**
 * The columns `appliedFrom` reads, for a statement over `tickets as t` left-joined to its company as
 * `c` (so the clock's history read can answer them too, in the same statement).
 */
export function appliedSlaColumns(
  eb: ExpressionBuilder<TicketAndCompany, 't' | 'c'>,
  tenantId: number,
  today: string,
) {
  return [
    eb.ref('t.sla_id').as('own'),
    eb.ref('c.sla_id').as('company'),
    eb
      .selectFrom('contracts as k')
      .innerJoin('company_contract as cc', 'cc.contract_id', 'k.id')
      .select('k.sla_id')
      .whereRef('cc.company_id', '=', 't.company_id')
      .where('k.tenant_id', '=', tenantId)
      .where('k.sla_id', 'is not', null)
      .where('k.start_date', '<=', today)
      .where((w) => w.or([w('k.end_date', 'is', null), w('k.end_date', '>=', today)]))
      .orderBy('k.start_date', 'desc')
      .orderBy('k.id', 'desc')
      .limit(1)
      .as('contract'),
    // The next date a contract of the company that names an SLA starts or ends (the day after its end
    // date): from then another SLA may apply, with no event on the ticket to say so.
    eb
      .selectFrom('contracts as k')
      .innerJoin('company_contract as cc', 'cc.contract_id', 'k.id')
      .select(
        sql<
          string | null
        >`min(case when k.start_date > ${today} then k.start_date else k.end_date + 1 end)::text`.as(
          'change',
        ),
      )
      .whereRef('cc.company_id', '=', 't.company_id')
      .where('k.tenant_id', '=', tenantId)
      .where('k.sla_id', 'is not', null)
      .where((w) => w.or([w('k.start_date', '>', today), w('k.end_date', '>=', today)]))
      .as('contract_change'),
    // The tenant's default, if it names one of the tenant's SLAs (a setting naming one that is gone,
    // or another tenant's, names none).
    eb
      .selectFrom('tenant_configs as g')
      .innerJoin('slas as s', (join) => join.on('s.tenant_id', '=', tenantId))
      .select('s.id')
      .where('g.tenant_id', '=', tenantId)
      .where('g.name', '=', DEFAULT_SLA_SETTING)
      .whereRef(sql`s.id::text`, '=', sql`trim(g.value, '" ')`)
      .limit(1)
      .as('tenant'),
  ] as const;
}

/** The applied SLA and the fallback from the columns of `appliedSlaColumns`. */
export function appliedFrom(row: {
  own: number | null;
  company: number | null;
  contract: number | null | undefined;
  tenant: number | null | undefined;
  contract_change: string | null | undefined;
}): AppliedSlas {
  const fallback: AppliedSla | null =
    row.contract !== null && row.contract !== undefined
      ? { slaId: row.contract, source: 'contract' }
      : row.company !== null
        ? { slaId: row.company, source: 'company' }
        : row.tenant !== null && row.tenant !== undefined
          ? { slaId: row.tenant, source: 'tenant' }
          : null;
  return {
    applied: row.own !== null ? { slaId: row.own, source: 'ticket' } : fallback,
    fallback,
    contractChange: row.contract_change ?? null,
  };
}

function calendarOf(
  contract: { schedule: unknown; timezone: string | null; holidays: unknown } | undefined,
): Calendar {
  if (!contract || contract.schedule === null) return ALWAYS_OPEN;
  try {
    return toCalendar(contract);
  } catch {
    // Stored before every write was checked as a calendar: it counts as none until it is mended.
    return ALWAYS_OPEN;
  }
}

/** The policies of the given SLAs of one tenant, by SLA id: four statements, whatever their number. */
export async function slaPolicies(
  db: Reader,
  tenantId: number,
  slaIds: number[],
): Promise<Map<number, SlaPolicy>> {
  const policies = new Map<number, SlaPolicy>();
  if (slaIds.length === 0) return policies;
  // One statement: each SLA with its calendar, its targets per priority, and the tenant's priorities and
  // pausing statuses (uncorrelated, so read once) as JSON arrays.
  const slas = await db
    .selectFrom('slas as s')
    .leftJoin('business_hour_contracts as b', (join) =>
      join.onRef('b.id', '=', 's.business_hour_contract_id').on('b.tenant_id', '=', tenantId),
    )
    .select([
      's.id',
      's.response_time',
      's.next_response_time',
      's.resolution_time',
      's.warning_percentages',
      'b.id as calendar_id',
      'b.schedule',
      'b.timezone',
      'b.holidays',
    ])
    .select((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom('sla_targets as t')
          .select(['t.priority_id', 't.response_time', 't.next_response_time', 't.resolution_time'])
          .where('t.tenant_id', '=', tenantId)
          .whereRef('t.sla_id', '=', 's.id'),
      ).as('targets'),
      jsonArrayFrom(eb.selectFrom('priorities').select('id').where('tenant_id', '=', tenantId)).as(
        'priorities',
      ),
      jsonArrayFrom(
        eb
          .selectFrom('ticket_statuses')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('pauses_sla', '=', true),
      ).as('pausing'),
    ])
    .where('s.tenant_id', '=', tenantId)
    .where('s.id', 'in', slaIds)
    .execute();
  for (const sla of slas) {
    const pausingStatuses = sla.pausing.map((status) => String(status.id));
    const own = {
      first_response: sla.response_time,
      next_response: sla.next_response_time,
      resolution: sla.resolution_time,
    };
    const perPriority: Record<string, Partial<Record<TargetName, number | null>>> = {};
    // A ticket without a priority (key '') has the SLA's own targets, as every priority without a row.
    perPriority[NO_PRIORITY] = own;
    for (const { id } of sla.priorities) perPriority[String(id)] = own;
    for (const t of sla.targets) {
      perPriority[String(t.priority_id)] = {
        first_response: t.response_time,
        next_response: t.next_response_time,
        resolution: t.resolution_time,
      };
    }
    policies.set(sla.id, {
      calendar: calendarOf(
        sla.calendar_id === null
          ? undefined
          : { schedule: sla.schedule, timezone: sla.timezone, holidays: sla.holidays },
      ),
      targets: perPriority,
      pausingStatuses,
      warnings: Array.isArray(sla.warning_percentages) ? (sla.warning_percentages as number[]) : [],
    });
  }
  return policies;
}
