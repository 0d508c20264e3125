/**
 * Shared formatters (SPEC sections 4, 5 and 9). Pure functions on top of `Intl`, no DOM: the browser apps
 * and the server's PDFs use the same ones.
 *
 * Dates come in three shapes:
 * - a date without a time zone, as the API and the date pickers write them ('2026-03-05',
 *   '2026-03-05 14:30:00', '2026-03-05T14:30'): a wall-clock value, shown exactly as written in every time zone;
 * - an instant (a `Date`, a number of milliseconds, or a string with 'Z' or an offset): shown in `timeZone`
 *   (default: the runtime's own);
 * - null, undefined, '' or anything unparseable: shown as ''.
 */

export const DEFAULT_FORMAT_LOCALE = 'nl';

export type DateInput = Date | string | number | null | undefined;

/** SPEC section 9: client/operator name 30, phone 35, ticket description 50, ID text 10, generic 35. */
export const ELLIPSIS_LIMITS = {
  name: 30,
  phone: 35,
  ticketDescription: 50,
  idText: 10,
  generic: 35,
} as const;

const ZONED = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const NAIVE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;

interface ParsedDate {
  /** For a wall-clock value: the same fields in UTC. For an instant: the instant. */
  date: Date;
  /** A wall-clock value without a time zone. */
  naive: boolean;
  /** A wall-clock value without a time. */
  dateOnly: boolean;
  /** The wall-clock fields, for naive values. */
  fields?: [year: number, month: number, day: number, hours: number, minutes: number, seconds: number];
}

function parse(value: DateInput): ParsedDate | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? null : { date: value, naive: false, dateOnly: false };
  if (typeof value === 'number') return Number.isFinite(value) ? parse(new Date(value)) : null;
  const text = value.trim();
  const m = NAIVE.exec(text);
  if (m) {
    const [year, month, day, hours, minutes, seconds] = m.slice(1, 7).map((p) => Number(p ?? 0)) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const date = new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds));
    // Reject 2026-02-31 and 25:00 rather than rolling over.
    if (
      date.getUTCMonth() !== month - 1 ||
      date.getUTCDate() !== day ||
      hours > 23 ||
      minutes > 59 ||
      seconds > 59
    )
      return null;
    date.setUTCFullYear(year); // years below 100
    return {
      date,
      naive: true,
      dateOnly: m[4] === undefined,
      fields: [year, month, day, hours, minutes, seconds],
    };
  }
  // Only ISO instants: Date's own parser would read '1' as the year 2001.
  if (!ZONED.test(text)) return null;
  const date = new Date(text.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? null : { date, naive: false, dateOnly: false };
}

/** A value as a `Date`; wall-clock values are taken in the runtime's own time zone. Null when empty or invalid. */
export function parseDate(value: DateInput): Date | null {
  const p = parse(value);
  if (!p) return null;
  if (!p.fields) return p.date;
  const [y, mo, d, h, mi, s] = p.fields;
  const local = new Date(y, mo - 1, d, h, mi, s);
  local.setFullYear(y);
  return local;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function dateParts(
  p: ParsedDate,
  locale: string,
  options: Intl.DateTimeFormatOptions,
  timeZone: string | undefined,
): Partial<Record<Intl.DateTimeFormatPartTypes, string>> {
  const zone = p.naive ? 'UTC' : timeZone;
  const key = `${locale}|${zone ?? ''}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone });
    formatters.set(key, formatter);
  }
  const out: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatter.formatToParts(p.date)) out[part.type] = part.value;
  return out;
}

const pad = (n: number, length = 2) => String(Math.trunc(n)).padStart(length, '0');

/** 'DD MMM YY' (SPEC 9): nl '05 mrt 26', en '05 Mar 26', de '05 März 26'. Abbreviation dots are dropped. */
export function formatDate(
  value: DateInput,
  locale: string = DEFAULT_FORMAT_LOCALE,
  timeZone?: string,
): string {
  const p = parse(value);
  if (!p) return '';
  const parts = dateParts(p, locale, { day: '2-digit', month: 'short', year: 'numeric' }, timeZone);
  const year = Number(parts.year);
  return `${parts.day} ${(parts.month ?? '').replace(/\.$/, '')} ${pad(year % 100)}`;
}

/** 'DD-MM-YYYY', the date format of contract and subscription periods (SPEC 9). */
export function formatPeriodDate(value: DateInput, timeZone?: string): string {
  const p = parse(value);
  if (!p) return '';
  const parts = dateParts(p, 'en', { day: '2-digit', month: '2-digit', year: 'numeric' }, timeZone);
  return `${parts.day}-${parts.month}-${pad(Number(parts.year), 4)}`;
}

/** 'D MMMM HH:mm', the display format of the date pickers (SPEC 9): nl '5 maart 14:30', en '5 March 14:30'. */
export function formatDateTime(
  value: DateInput,
  locale: string = DEFAULT_FORMAT_LOCALE,
  timeZone?: string,
): string {
  const p = parse(value);
  if (!p) return '';
  const parts = dateParts(
    p,
    locale,
    { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
    timeZone,
  );
  return `${Number(parts.day)} ${parts.month} ${pad(Number(parts.hour))}:${pad(Number(parts.minute))}`;
}

const toNumber = (value: number | string | null | undefined): number | null => {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === ''))
    return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
};

const numberFormatters = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let formatter = numberFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, options);
    numberFormatters.set(key, formatter);
  }
  return formatter;
}

/**
 * Euros with two decimals, as Intl writes them for the locale (the space after '€' in nl and before it in
 * de is a no-break space): nl '€ 1.234,50', en '€1,234.50', de '1.234,50 €'. Accepts the API's decimal
 * strings ('1234.50'). Empty or not a number: ''.
 */
export function formatMoney(
  amount: number | string | null | undefined,
  locale: string = DEFAULT_FORMAT_LOCALE,
): string {
  const n = toNumber(amount);
  if (n === null) return '';
  return numberFormat(locale, {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(n === 0 ? 0 : n); // no '-0,00'
}

/** Minutes as 'HH:MM' (SPEC 9): 90 → '01:30', 605 → '10:05', 6000 → '100:00', -90 → '-01:30'. */
export function formatMinutes(minutes: number | string | null | undefined): string {
  const n = toNumber(minutes);
  if (n === null) return '';
  const total = Math.round(Math.abs(n));
  const sign = n < 0 && total > 0 ? '-' : '';
  return `${sign}${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
}

/**
 * Time entry (SPEC 5): 'hh:mm' (hours any number of digits, minutes two digits below 60) or a plain whole
 * number of minutes, surrounding spaces ignored. Anything else, including '', is null.
 */
export function parseTime(text: string | null | undefined): number | null {
  if (text === null || text === undefined) return null;
  const value = text.trim();
  const clock = /^(\d{1,4}):([0-5]\d)$/.exec(value);
  if (clock) return Number(clock[1]) * 60 + Number(clock[2]);
  if (/^\d{1,6}$/.test(value)) return Number(value);
  return null;
}

/**
 * Quantities (SPEC 9, 'fractional quantity shown with 2 decimals'): a whole number as it is, a fraction
 * with exactly two decimals in the locale's notation: 2 → '2', 1.5 → nl '1,50' / en '1.50', '2.00' → '2'.
 * No thousands separators.
 */
export function formatQuantity(
  n: number | string | null | undefined,
  locale: string = DEFAULT_FORMAT_LOCALE,
): string {
  const value = toNumber(n);
  if (value === null) return '';
  if (Number.isInteger(value)) return String(value === 0 ? 0 : value);
  return numberFormat(locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    useGrouping: false,
  }).format(value);
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * File sizes in units of 1024 (SPEC 9): bytes as a whole number ('0 B', '512 B'), larger units with one
 * decimal in the locale's notation (nl '1,5 KB', en '1.5 KB', '1,0 MB').
 */
export function formatFileSize(
  bytes: number | string | null | undefined,
  locale: string = DEFAULT_FORMAT_LOCALE,
): string {
  const n = toNumber(bytes);
  if (n === null || n < 0) return '';
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  if (unit === 0) return `${Math.round(value)} B`;
  // 1023.96 KB would round to '1024,0 KB': move up a unit instead.
  if (Math.round(value * 10) / 10 >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = numberFormat(locale, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    useGrouping: false,
  }).format(value);
  return `${text} ${SIZE_UNITS[unit]}`;
}

/**
 * Cuts a text longer than `limit` characters (code points, so an emoji is never split) to its first `limit`
 * characters, trailing spaces removed, plus '…'. Shorter texts are returned as they are; null is ''.
 */
export function ellipsis(
  text: string | number | null | undefined,
  limit: number = ELLIPSIS_LIMITS.generic,
): string {
  if (text === null || text === undefined) return '';
  const chars = Array.from(String(text));
  if (chars.length <= limit) return chars.join('');
  return `${chars.slice(0, Math.max(0, limit)).join('').trimEnd()}…`;
}

/** Numeric-only input (SPEC 5): a comma becomes a dot; everything but digits, '.' and '-' is dropped. */
export function sanitizeNumericInput(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  return text.replace(/,/g, '.').replace(/[^0-9.-]/g, '');
}

/** SPEC 9: date-time pickers offer every 5 minutes, and a typed time is moved to the nearest step. */
export const PICKER_MINUTES_STEP = 5;

/** A moment moved to the nearest `step` minutes (seconds dropped): 14:32 -> 14:30, 14:33 -> 14:35. */
export function roundToMinutesStep(date: Date, step: number = PICKER_MINUTES_STEP): Date {
  const out = new Date(date.getTime());
  out.setSeconds(0, 0);
  const minutes = out.getMinutes();
  out.setMinutes(Math.round(minutes / step) * step);
  return out;
}

/**
 * A date picker's value (SPEC 9: 'YYYY-MM-DD HH:mm:ss', the local wall-clock time) with the runtime's UTC
 * offset appended ('2026-03-05 14:30:00+01:00'): the API stores instants and its date-time format needs a
 * zone, so the wall-clock time the user picked arrives as the moment they meant.
 */
export function pickerValue(date: Date | null | undefined): string | null {
  if (!date || Number.isNaN(date.getTime())) return null;
  const offset = -date.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const day = `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return `${day} ${time}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

const relativeFormatters = new Map<string, Intl.RelativeTimeFormat>();
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * '5 minuten geleden', 'gisteren', 'in 2 hours' (message threads). Under a minute either way is 'now';
 * then minutes, hours, days (up to 6), weeks (up to 4), months (up to 11), years; whole units, rounded
 * towards zero. `now` is passed in so the caller decides when to refresh (every 30 s, SPEC 9).
 */
export function relativeTime(
  date: DateInput,
  now: DateInput = new Date(),
  locale: string = DEFAULT_FORMAT_LOCALE,
): string {
  const then = parseDate(date);
  const current = parseDate(now);
  if (!then || !current) return '';
  const diff = then.getTime() - current.getTime();
  const abs = Math.abs(diff);
  let rtf = relativeFormatters.get(locale);
  if (!rtf) {
    rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormatters.set(locale, rtf);
  }
  const whole = (unit: number) => Math.trunc(diff / unit) || 0;
  if (abs < MINUTE) return rtf.format(0, 'second');
  if (abs < HOUR) return rtf.format(whole(MINUTE), 'minute');
  if (abs < DAY) return rtf.format(whole(HOUR), 'hour');
  if (abs < 7 * DAY) return rtf.format(whole(DAY), 'day');
  if (abs < 30 * DAY) return rtf.format(whole(7 * DAY), 'week');
  if (abs < 365 * DAY) return rtf.format(whole(30 * DAY), 'month');
  return rtf.format(whole(365 * DAY), 'year');
}

/** The moment a value stops being 'not yet past': a date without a time lasts until the end of its day. */
function endOf(value: DateInput): Date | null {
  const p = parse(value);
  const date = parseDate(value);
  if (!p || !date) return null;
  if (!p.dateOnly) return date;
  const end = new Date(date);
  end.setDate(end.getDate() + 1);
  return end;
}

/**
 * How far ahead a due date counts as upcoming (SPEC 4 says 'upcoming' without a distance): 30 days, the
 * same month the contract end badge warns in. A date further away is 'later': shown, not flagged.
 */
export const DUE_SOON_DAYS = 30;

/**
 * SPEC 4, due date badge: 'past' (red) once the date has passed, 'upcoming' (yellow) within
 * DUE_SOON_DAYS, 'later' (no colour) further away, 'none' (a check mark) without a date. A date
 * without a time is past from the next day on.
 */
export function dueDateBadge(
  date: DateInput,
  now: DateInput = new Date(),
): 'past' | 'upcoming' | 'later' | 'none' {
  const end = endOf(date);
  const current = parseDate(now);
  if (!end || !current) return 'none';
  if (end.getTime() <= current.getTime()) return 'past';
  const soon = new Date(current);
  soon.setDate(soon.getDate() + DUE_SOON_DAYS);
  return (parseDate(date) as Date).getTime() <= soon.getTime() ? 'upcoming' : 'later';
}

/**
 * SPEC 4, contract end badge: red once the end date has passed, yellow when it falls within a month from
 * now (now plus one calendar month, inclusive), green for a set end date further away; 'none' without an
 * end date (a prepaid card that runs until its hours are used): no badge, since green says 'set'.
 */
export function contractEndBadge(
  date: DateInput,
  now: DateInput = new Date(),
): 'green' | 'red' | 'yellow' | 'none' {
  const end = endOf(date);
  const current = parseDate(now);
  if (!end || !current) return 'none';
  if (end.getTime() <= current.getTime()) return 'red';
  const inAMonth = new Date(current);
  inAMonth.setMonth(inAMonth.getMonth() + 1);
  // 31 January plus a month is the end of February, not 3 March.
  if (inAMonth.getDate() !== current.getDate()) inAMonth.setDate(0);
  const start = parseDate(date) as Date;
  return start.getTime() <= inAMonth.getTime() ? 'yellow' : 'green';
}
