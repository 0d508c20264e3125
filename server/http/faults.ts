/**
 * Faults on request, for the browser tests only: they make the real server fail (a 500, a connection
 * cut) so a test sees what the apps do with a failed call, without mocking the browser.
 *
 * Off unless the environment has both `E2E_FAULTS=1` and `NODE_ENV=test` (tests/e2e/server.ts sets
 * both). `NODE_ENV=test` is the second key rather than "anything but production" because a production
 * start (`npm start`) sets no NODE_ENV at all: a stray E2E_FAULTS there is ignored, with a warning.
 *
 * When on, a request carrying `X-E2E-Fault: <kind> <METHOD> <path>` (several separated by commas) whose
 * method and path (without the query string) match fails: kind `500` answers through the one error
 * handler as any unexpected error does ({message: 'Server error.'}), kind `reset` destroys the socket
 * without an answer (the browser sees a network error). Other requests are served as usual, so a test
 * sets the header on its page (Playwright's extraHTTPHeaders) and only that page's matching calls fail.
 */
import type { FastifyInstance } from 'fastify';

export const FAULT_HEADER = 'x-e2e-fault';

export type FaultKind = '500' | 'reset';

export interface Fault {
  kind: FaultKind;
  method: string;
  path: string;
}

/** Whether the environment switches faults on; `warn` hears of an E2E_FAULTS that was ignored. */
export function faultsEnabled(env: NodeJS.ProcessEnv, warn: (message: string) => void = () => {}): boolean {
  if (env.E2E_FAULTS !== '1') return false;
  if (env.NODE_ENV === 'test') return true;
  warn('E2E_FAULTS is ignored: test faults need NODE_ENV=test as well.');
  return false;
}

/** The faults a header value asks for; parts that do not parse are left out. */
export function parseFaults(value: string | string[] | undefined): Fault[] {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return text
    .split(',')
    .map((part) => part.trim().split(/\s+/))
    .filter((words): words is [FaultKind, string, string] => {
      const [kind, method, path] = words;
      return words.length === 3 && (kind === '500' || kind === 'reset') && !!method && !!path;
    })
    .map(([kind, method, path]) => ({ kind, method: method.toUpperCase(), path }));
}

/** Registered by buildApp only when faults are on: without it the header means nothing. */
export function installFaults(app: FastifyInstance): void {
  app.log.warn('test faults are on (E2E_FAULTS=1, NODE_ENV=test): never in production');
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0];
    const fault = parseFaults(request.headers[FAULT_HEADER]).find(
      (f) => f.method === request.method && f.path === path,
    );
    if (!fault) return;
    if (fault.kind === 'reset') {
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    throw new Error(`test fault: ${request.method} ${path}`);
  });
}
