/**
 * A recurring ticket's schedule as a whole (issue 37, item 4): the schema checks each field, this the
 * rules of fields together (by hand, each named below), and it sets `next_run_at` whenever the schedule
 * or `active` changes: the first occurrence after now, in the desk's zone; null while inactive.
 */
import { DEFAULT_TIME_ZONE } from '../../../common/sla/calendar.ts';
import { serverText } from '../../../common/server-texts.ts';
import { ValidationError } from '../../http/errors.ts';
import type { HookContext, ResourceHooks } from '../hook-contract.ts';
import { nextOccurrence, type Schedule } from './schedule.ts';

/** The columns that make the schedule: a change of any recomputes next_run_at. */
const SCHEDULE = [
  'frequency',
  'interval',
  'day_of_month',
  'nth',
  'weekday',
  'time_of_day',
  'starts_on',
  'active',
] as const;

/**
 * By hand, the rules of several fields: weekly needs a weekday and takes no day of the month nor nth;
 * the others need either a day of the month, or nth with a weekday, not both.
 */
function scheduleErrors(s: Record<string, unknown>): Record<string, string[]> {
  const has = (name: string) => s[name] !== null && s[name] !== undefined;
  const errors: Record<string, string[]> = {};
  if (s.frequency === 'weekly') {
    if (!has('weekday')) errors.weekday = [serverText('recurring_weekday_needed')];
    for (const name of ['day_of_month', 'nth'])
      if (has(name)) errors[name] = [serverText('recurring_not_weekly')];
  } else if (has('day_of_month')) {
    for (const name of ['nth', 'weekday'])
      if (has(name)) errors[name] = [serverText('recurring_day_or_weekday')];
  } else {
    if (!has('nth')) errors.nth = [serverText('recurring_day_or_weekday')];
    if (!has('weekday')) errors.weekday = [serverText('recurring_day_or_weekday')];
  }
  return errors;
}

/** A stored or sent date as YYYY-MM-DD (the database gives a Date at local midnight for a date). */
function isoDate(value: unknown): string {
  if (value instanceof Date) {
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
  }
  return String(value).slice(0, 10);
}

/** The columns `next_run_at` for the schedule `s` (whole), from now. */
function nextRun(s: Record<string, unknown>): Date | null {
  if (s.active === false) return null;
  const schedule: Schedule = {
    frequency: s.frequency as Schedule['frequency'],
    interval: Number(s.interval ?? 1),
    day_of_month: s.day_of_month === null || s.day_of_month === undefined ? null : Number(s.day_of_month),
    nth: s.nth === null || s.nth === undefined ? null : Number(s.nth),
    weekday: s.weekday === null || s.weekday === undefined ? null : Number(s.weekday),
    time_of_day: String(s.time_of_day ?? '09:00'),
    starts_on: isoDate(s.starts_on),
  };
  return nextOccurrence(schedule, new Date(), DEFAULT_TIME_ZONE);
}

async function settle(whole: Record<string, unknown>, changes: Record<string, unknown>): Promise<void> {
  const errors = scheduleErrors(whole);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  changes.next_run_at = nextRun(whole);
}

export const recurringTicketHooks: ResourceHooks = {
  async beforeStore(row) {
    await settle(row, row);
  },
  async beforeUpdate(id, changes, { trx, auth }: HookContext) {
    if (!SCHEDULE.some((name) => name in changes)) return;
    const current = await trx
      .selectFrom('recurring_tickets')
      .select([...SCHEDULE])
      .where('id', '=', id)
      .where('tenant_id', '=', auth.tenantId)
      .executeTakeFirstOrThrow();
    await settle({ ...current, ...changes }, changes);
  },
};
