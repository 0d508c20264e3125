import { formatPeriodDate, type DateInput } from '../../common/format.ts';
import { DEFAULT_TIME_ZONE } from '../../common/sla/calendar.ts';

/**
 * The time zone of the PDFs' moments (acceptance time): the desk's, whatever the server runs in. One
 * constant with the SLA clock's and the exports' wall-clock times, so they can never disagree.
 */
export const PDF_TIME_ZONE = DEFAULT_TIME_ZONE;

const clock = new Intl.DateTimeFormat('nl', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: PDF_TIME_ZONE,
});

/** An instant as 'DD-MM-YYYY HH:mm' in Dutch time; '' when empty. */
export function formatMoment(value: DateInput): string {
  const date = value instanceof Date ? value : value ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return '';
  return `${formatPeriodDate(date, PDF_TIME_ZONE)} ${clock.format(date)}`;
}
