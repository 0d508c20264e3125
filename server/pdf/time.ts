import { formatPeriodDate, type DateInput } from '../../common/format.ts';

/** The time zone of the PDFs' moments (acceptance time): the Dutch one, whatever the server runs in. */
export const PDF_TIME_ZONE = 'Europe/Amsterdam';

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
