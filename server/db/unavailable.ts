/**
 * Errors that say the database cannot be reached right now (restarting, shutting down, a dropped
 * connection), as opposed to errors of the statement itself. Callers answer them with 503 and
 * Retry-After, and background loops try again later: the database coming back is the cure.
 */

/** How long a caller is told to wait before trying again, in seconds. */
export const RETRY_AFTER_SECONDS = 5;

// Socket errors of node-postgres when the server is away or the connection drops.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);
// 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now (starting or stopping).
const SERVER_CODES = new Set(['57P01', '57P02', '57P03']);
// node-postgres and pg-pool raise these as plain errors, without a code.
const MESSAGES = [/^Connection terminated/, /^timeout exceeded when trying to connect/, /is not queryable/];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (SOCKET_CODES.has(code) || SERVER_CODES.has(code)) return true;
      // Class 08: connection exceptions.
      if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    }
    if (MESSAGES.some((m) => m.test(e.message))) return true;
  }
  return false;
}
