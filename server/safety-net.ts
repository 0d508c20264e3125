/**
 * The last line of defence of a serving process: an error that no request, hook or stream listener
 * handled. Errors inside a request already end as a logged 500 (http/error-handler.ts); what reaches
 * here escaped its request: a stream 'error' event without a listener, a promise nobody awaited, a
 * throw in a timer. Each concerns the one operation it came from, and the service keeps nothing in
 * memory that another request needs (DESIGN 12), so the process logs it and keeps serving instead of
 * dropping every other caller's request with it. However often it happens: a limit would let anyone
 * who found such a bug end the process by repeating the request.
 *
 * Not survived: Node reporting its own internals broken (ERR_INTERNAL_ASSERTION). Then the process
 * shuts down as on SIGTERM (requests in flight finish, jobs are handed back) and exits 1, for its
 * supervisor to start a new one.
 */

type Log = { error(object: object, message: string): void; fatal(object: object, message: string): void };

const FATAL_CODES = new Set(['ERR_INTERNAL_ASSERTION']);

export function installSafetyNet(log: Log, shutdown: (reason: string) => void): void {
  const escaped = (error: unknown, origin: string) => {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && FATAL_CODES.has(code)) {
      log.fatal({ err: error, origin }, 'Node reported an internal error; shutting down');
      shutdown('internal error');
    } else {
      log.error({ err: error, origin }, 'unhandled error; the process goes on');
    }
  };
  process.on('uncaughtException', (error, origin) => escaped(error, origin));
  process.on('unhandledRejection', (reason) => escaped(reason, 'unhandledRejection'));
}
