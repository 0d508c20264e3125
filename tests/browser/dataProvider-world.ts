import { vi } from 'vitest';
import { createHttpClient } from '../../src/dataProvider/http.ts';
import { createDataProvider } from '../../src/dataProvider/index.ts';
import { APP_PORTAL_TOKEN } from '../../src/dataProvider/storage.ts';

/**
 * What the data provider's test files share (dataProvider-getList, dataProvider-calls and
 * dataProvider-reload-storage): a fake fetch that records every call and the data provider built on it,
 * and the signed-in page each test starts on.
 */

export interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
  signal: AbortSignal | undefined;
}
export interface Reply {
  status?: number;
  body?: unknown;
}

function fakeResponse({ status = 200, body = null }: Reply): Response {
  const text = body === null || body === undefined ? '' : JSON.stringify(body);
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: '',
    headers: new Headers(),
    text: async () => text,
    blob: async () => new Blob([text]),
  } as unknown as Response;
}

/** A fake fetch that records every call, URLs decoded, and answers with `reply`. */
function fakeFetch(reply: (call: Call) => Reply | Promise<Reply> = () => ({ body: {} })) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const call: Call = {
      url: decodeURIComponent(url),
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      credentials: init.credentials,
      signal: init.signal ?? undefined,
    };
    calls.push(call);
    return fakeResponse(await reply(call));
  });
  return { fetch, calls };
}

export const page = (data: unknown[], total = data.length) => ({
  body: { data, total, from: 1, to: data.length, per_page: 15, current_page: 1, last_page: 1 },
});

export function setup(reply?: (call: Call) => Reply | Promise<Reply>) {
  const fake = fakeFetch(reply);
  const http = createHttpClient({ fetch: fake.fetch });
  return { ...fake, dataProvider: createDataProvider(http) };
}

export const query = (url: string) => url.slice(url.indexOf('?') + 1).split('&');

/** Before each test: signed in to the portal with an empty storage otherwise, on a tickets list. */
export function signedInOnTicketsList() {
  localStorage.clear();
  localStorage.setItem(APP_PORTAL_TOKEN, 'access-1');
  window.history.replaceState(null, '', '/app/tickets?view=2');
}
