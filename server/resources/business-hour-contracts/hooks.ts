/**
 * A business-hour contract is the SLA clock's calendar (common/sla/calendar.ts): every write is checked
 * as a whole calendar, so a schedule with overlapping or reversed intervals, an unknown time zone or a
 * holiday that is not a date answers 422 naming the interval or field (`schedule.monday.1`,
 * `holidays.2.date`, `timezone`). By hand, not by the schema: overlaps compare intervals with each
 * other, a zone is known only to the time-zone database, and an update is checked merged with the
 * stored fields it leaves as they are. A contract without a schedule is not a calendar yet and stays
 * allowed, as it was (its SLAs count real time, every day, all day).
 */
import { calendarProblems, type CalendarInput } from '../../../common/sla/calendar.ts';
import { ValidationError } from '../../http/errors.ts';
import type { ResourceHooks } from '../hook-contract.ts';

const CALENDAR_COLUMNS = ['schedule', 'timezone', 'holidays'] as const;

/** A JSON column as the generic write hands it over: JSON text (null stays null). */
const parsed = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

function check(input: CalendarInput): void {
  // Without a schedule it is no calendar yet, but its zone and holidays are checked all the same.
  const whole =
    input.schedule === null || input.schedule === undefined ? { ...input, schedule: '24/7' } : input;
  const problems = calendarProblems(whole);
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
}

export const businessHourContractHooks: ResourceHooks = {
  beforeStore(row) {
    check({ schedule: parsed(row.schedule), timezone: row.timezone, holidays: parsed(row.holidays) });
  },
  async beforeUpdate(id, changes, { trx, auth }) {
    if (!CALENDAR_COLUMNS.some((column) => column in changes)) return;
    const stored = await trx
      .selectFrom('business_hour_contracts')
      .select(['schedule', 'timezone', 'holidays'])
      .where('tenant_id', '=', auth.tenantId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // Sent columns come as the generic write hands them over; stored ones as read (JSON parsed).
    check({
      schedule: 'schedule' in changes ? parsed(changes.schedule) : stored.schedule,
      timezone: 'timezone' in changes ? changes.timezone : stored.timezone,
      holidays: 'holidays' in changes ? parsed(changes.holidays) : stored.holidays,
    });
  },
};
