/**
 * The recurring tickets' background pass (issue 37, item 4): every active schedule whose `next_run_at`
 * has come makes its ticket from the template, for its company (and client), with its checklist, and
 * moves `next_run_at` to the first occurrence after now.
 *
 * Exactly once, with any number of instances: the ticket is made through the repository (its hooks: the
 * reference, the starting status, the SLA clock, the live lists) and, in the same transaction, the
 * (schedule, occurrence) row of recurring_ticket_runs is inserted. A second instance that found the same
 * schedule due waits on that key and, once the first commits, inserts nothing: it throws Taken, and its
 * ticket rolls back with it.
 *
 * After downtime one missed occurrence is caught up, never more: the ticket made is the earliest missed
 * one's, and the next run is the first occurrence after now, so the others are passed over.
 */
import type { Db, DbTransaction } from '../../db/database.ts';
import type { Registry } from '../../schema/registry.ts';
import { systemContext } from '../../auth/context.ts';
import { BodyValidation } from '../../schema/validate.ts';
import { insertRecord, type Deps } from '../repository.ts';
import { DEFAULT_TIME_ZONE } from '../../../common/sla/calendar.ts';
import { nextOccurrence, type Schedule } from './schedule.ts';

/** Schedules per look, one transaction each. */
const BATCH = 50;

/** What a template gives the ticket it makes (the schedule gives the company and the client). */
const FROM_TEMPLATE = [
  'description',
  'stage',
  'priority_id',
  'status_id',
  'operator_id',
  'ticket_type_id',
  'ticket_source_id',
  'category_id',
  'sla_id',
] as const;

interface ChecklistLine {
  text: string;
  required?: boolean;
  visible_to_client?: boolean;
}

/** Another instance made this occurrence's ticket first. */
class Taken extends Error {}

export interface RecurringDeps {
  db: Db;
  registry: Registry;
  /** A schedule whose ticket could not be made (its template gone): told here, and the others go on. */
  failed?: (error: unknown, scheduleId: number) => void;
}

type Due = Awaited<ReturnType<typeof dueSchedules>>[number];

function dueSchedules(db: Db, now: Date) {
  return db
    .selectFrom('recurring_tickets')
    .selectAll()
    .where('active', '=', true)
    .where('next_run_at', '<=', now)
    .orderBy('next_run_at')
    .orderBy('id')
    .limit(BATCH)
    .execute();
}

/** The schedule's first occurrence after `now`. */
function following(row: Due, now: Date): Date {
  const schedule: Schedule = {
    frequency: row.frequency as Schedule['frequency'],
    interval: Number(row.interval),
    day_of_month: row.day_of_month === null ? null : Number(row.day_of_month),
    nth: row.nth === null ? null : Number(row.nth),
    weekday: row.weekday === null ? null : Number(row.weekday),
    time_of_day: row.time_of_day,
    starts_on: String(row.starts_on).slice(0, 10),
  };
  return nextOccurrence(schedule, now, DEFAULT_TIME_ZONE);
}

/** In the ticket's transaction: the claim, the ticket's schedule, its checklist, the next run. */
async function recordRun(trx: DbTransaction, row: Due, ticketId: number, next: Date): Promise<void> {
  const claimed = await trx
    .insertInto('recurring_ticket_runs')
    .values({ recurring_ticket_id: row.id, occurrence: row.next_run_at!, ticket_id: ticketId })
    .onConflict((oc) => oc.columns(['recurring_ticket_id', 'occurrence']).doNothing())
    .returning('recurring_ticket_id')
    .executeTakeFirst();
  if (!claimed) throw new Taken();
  await trx
    .updateTable('tickets')
    .set({ recurring_ticket_id: row.id })
    .where('id', '=', ticketId)
    .where('tenant_id', '=', row.tenant_id)
    .execute();
  const lines = (Array.isArray(row.checklist) ? row.checklist : []) as unknown as ChecklistLine[];
  if (lines.length)
    await trx
      .insertInto('checklist_items')
      .values(
        lines.map((line, i) => ({
          tenant_id: row.tenant_id,
          ticket_id: ticketId,
          position: i + 1,
          text: line.text,
          required: line.required === true,
          visible_to_client: line.visible_to_client === true,
        })),
      )
      .execute();
  await trx.updateTable('recurring_tickets').set({ next_run_at: next }).where('id', '=', row.id).execute();
}

/** One schedule's due ticket; false when another instance made it. */
async function makeTicket(deps: RecurringDeps, row: Due, now: Date): Promise<boolean> {
  const repo: Deps = { db: deps.db, registry: deps.registry, validation: new BodyValidation() };
  const template = await deps.db
    .selectFrom('tickets')
    .select([...FROM_TEMPLATE])
    .where('id', '=', row.ticket_template_id)
    .where('tenant_id', '=', row.tenant_id)
    .where('is_template', '=', true)
    .executeTakeFirstOrThrow();
  const body: Record<string, unknown> = { company_id: row.company_id, client_id: row.client_id };
  for (const name of FROM_TEMPLATE) if (template[name] !== null) body[name] = template[name];
  const next = following(row, now);
  try {
    await insertRecord(
      repo,
      systemContext(row.tenant_id),
      deps.registry.require('tickets'),
      body,
      (id, trx) => recordRun(trx, row, id, next),
    );
    return true;
  } catch (error) {
    if (error instanceof Taken) return false;
    throw error;
  }
}

/**
 * Makes the tickets of every due schedule (at `now`); answers how many it made. A schedule that fails
 * is told to `failed` and moved on to its next occurrence, so that one broken schedule is not tried
 * again every minute.
 */
export async function makeDueTickets(deps: RecurringDeps, now: Date, stopped = () => false): Promise<number> {
  let made = 0;
  for (const row of await dueSchedules(deps.db, now)) {
    if (stopped()) break;
    try {
      if (await makeTicket(deps, row, now)) made++;
    } catch (error) {
      deps.failed?.(error, row.id);
      await deps.db
        .updateTable('recurring_tickets')
        .set({ next_run_at: following(row, now) })
        .where('id', '=', row.id)
        .where('next_run_at', '=', row.next_run_at)
        .execute();
    }
  }
  return made;
}
