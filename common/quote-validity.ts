/**
 * When a quote has expired, for the server that refuses to accept or send it and for the apps that show
 * it (docs/decisions.md, 2026-12-01, "A quote past its validity date"). A quote is valid up to and
 * including its validity date (`valid_until`, "Geldig tot" on its PDF), counted in Dutch days, as the
 * PDF's dates are: it has expired from the next day in Amsterdam on, whatever the time zone of the server
 * or the browser. A quote without a validity date does not expire. Only a quote still to be decided on
 * (concept or sent) can expire: an accepted or rejected quote stays what it is.
 */

/** The time zone whose days the validity date counts in: the PDFs' (server/pdf/time.ts). */
export const VALIDITY_TIME_ZONE = 'Europe/Amsterdam';

/** SPEC 3 quote statuses a quote is still open in: concept (1) and sent (2). */
const UNDECIDED = new Set([1, 2]);

// Made at the first use, not when the module loads: a formatter with a time zone costs the apps' first
// screen a few milliseconds of a phone's main thread (docs/benchmarks.md, issue 40).
let dayFormat: Intl.DateTimeFormat | undefined;

/** The day of `now` in Amsterdam, as 'YYYY-MM-DD'. */
export function validityToday(now: Date = new Date()): string {
  dayFormat ??= new Intl.DateTimeFormat('en-CA', {
    timeZone: VALIDITY_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const parts = Object.fromEntries(dayFormat.formatToParts(now).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The validity date as 'YYYY-MM-DD' (a date field's value, or the date of a longer text); else null. */
function dayOf(validUntil: unknown): string | null {
  if (typeof validUntil !== 'string') return null;
  const day = /^(\d{4}-\d{2}-\d{2})/.exec(validUntil)?.[1];
  return day ?? null;
}

/** Whether the validity date lies before today in Amsterdam; false without a date. */
export function validityPassed(validUntil: unknown, now: Date = new Date()): boolean {
  const day = dayOf(validUntil);
  return day !== null && day < validityToday(now);
}

/** Whether a quote has expired: still undecided (concept or sent) and its validity date passed. */
export function quoteExpired(
  quote: { status_id?: unknown; valid_until?: unknown; [field: string]: unknown },
  now: Date = new Date(),
): boolean {
  return UNDECIDED.has(Number(quote.status_id)) && validityPassed(quote.valid_until, now);
}
