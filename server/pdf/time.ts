import { formatPeriodDate, type DateInput } from '../../common/format.ts';
import { DEFAULT_TIME_ZONE } from '../../common/sla/calendar.ts';

// The PDFs' moments (acceptance time) are on the desk's wall clock, whatever zone the server runs in:
// the zone of the SLA clock and the exports, so the three never disagree.
const clock = new Intl.DateTimeFormat('nl', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: DEFAULT_TIME_ZONE,
});

/** An instant as 'DD-MM-YYYY HH:mm' in Dutch time; '' when empty. */
export function formatMoment(value: DateInput): string {
  const date = value instanceof Date ? value : value ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return '';
  return `${formatPeriodDate(date, DEFAULT_TIME_ZONE)} ${clock.format(date)}`;
}
