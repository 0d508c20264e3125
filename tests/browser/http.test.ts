// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from 'ra-core';
import { createHttpClient } from '../../src/dataProvider/http.ts';
import { APP_PORTAL_TOKEN, APP_QUOTE_TOKEN, APP_USER } from '../../src/dataProvider/storage.ts';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  credentials: RequestCredentials | undefined;
  signal: AbortSignal | undefined;
}
interface Reply {
  status?: number;
  body?: unknown;
  raw?: string;
  contentType?: string;
}

function fakeResponse({ status = 200, body = null, raw, contentType }: Reply): Response {
  const text = raw ?? (body === null || body === undefined ? '' : JSON.stringify(body));
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: status === 500 ? 'Internal Server Error' : '',
    headers: new Headers(contentType ? { 'content-type': contentType } : {}),
    text: async () => text,
    blob: async () => new Blob([text], { type: contentType }),
  } as unknown as Response;
}

function fakeFetch(reply: (call: Call) => Reply | Promise<Reply>) {
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

const USER = { id: 3, full_name: 'Jan Jansen', permissions_names: ['portal.tickets.index'] };
const unauthenticated = { status: 401, body: { message: 'Unauthenticated.' } };
const refreshed = (token: string) => ({
  body: { user: USER, access_token: token, token_type: 'Bearer', expires_in: 900 },
});
const isRefresh = (c: Call) => c.url === '/api/auth/refresh';
const bearer = (c: Call) => c.headers.Authorization;

/** A server whose only valid access token is `valid`; refresh answers `refresh`. */
function server(valid: string, refresh: () => Reply | Promise<Reply>) {
  return fakeFetch((call) => {
    if (isRefresh(call)) return refresh();
    return bearer(call) === `Bearer ${valid}` ? { body: { ok: call.url } } : unauthenticated;
  });
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(APP_PORTAL_TOKEN, 'old');
  localStorage.setItem(APP_USER, JSON.stringify({ id: 3 }));
});

describe('401: refresh once and retry', () => {
  it('refreshes exactly once and retries the call with the new token', async () => {
    const { fetch, calls } = server('new', () => refreshed('new'));
    const onSessionEnded = vi.fn();
    const http = createHttpClient({ fetch, onSessionEnded });
    const answer = await http.request('/tickets?page=2');
    expect(answer.body).toEqual({ ok: '/api/tickets?page=2' });
    expect(calls.map((c) => [c.method, c.url, bearer(c)])).toEqual([
      ['GET', '/api/tickets?page=2', 'Bearer old'],
      ['POST', '/api/auth/refresh', undefined],
      ['GET', '/api/tickets?page=2', 'Bearer new'],
    ]);
    expect(calls[1]!.credentials).toBe('include');
    expect(localStorage.getItem(APP_PORTAL_TOKEN)).toBe('new');
    expect(JSON.parse(localStorage.getItem(APP_USER)!)).toEqual(USER);
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it('two concurrent 401s share one refresh', async () => {
    let finishRefresh!: () => void;
    const refreshDone = new Promise<void>((resolve) => (finishRefresh = resolve));
    const { fetch, calls } = server('new', async () => {
      await refreshDone;
      return refreshed('new');
    });
    const http = createHttpClient({ fetch });
    const a = http.request('/tickets');
    const b = http.request('/assets');
    await vi.waitFor(() => expect(calls.filter(isRefresh)).toHaveLength(1));
    finishRefresh();
    expect((await a).body).toEqual({ ok: '/api/tickets' });
    expect((await b).body).toEqual({ ok: '/api/assets' });
    expect(calls.filter(isRefresh)).toHaveLength(1);
    expect(calls.filter((c) => !isRefresh(c)).map(bearer)).toEqual([
      'Bearer old',
      'Bearer old',
      'Bearer new',
      'Bearer new',
    ]);
  });

  it('a 401 that arrives after another call refreshed retries without a second refresh', async () => {
    let releaseSlow!: () => void;
    const slow = new Promise<void>((resolve) => (releaseSlow = resolve));
    const { fetch, calls } = fakeFetch(async (call) => {
      if (isRefresh(call)) return refreshed('new');
      if (call.url === '/api/slow' && bearer(call) === 'Bearer old') {
        await slow;
        return unauthenticated;
      }
      return bearer(call) === 'Bearer new' ? { body: {} } : unauthenticated;
    });
    const http = createHttpClient({ fetch });
    const slowCall = http.request('/slow');
    await http.request('/fast');
    releaseSlow();
    await slowCall;
    expect(calls.filter(isRefresh)).toHaveLength(1);
  });

  it('a second 401 after the retry rejects without another refresh', async () => {
    const { fetch, calls } = fakeFetch((call) => (isRefresh(call) ? refreshed('new') : unauthenticated));
    const http = createHttpClient({ fetch });
    await expect(http.request('/tickets')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(3);
  });
});

describe('refresh fails: the session ends', () => {
  it('removes the tokens and the user, calls onSessionEnded once and rejects with 401', async () => {
    localStorage.setItem(APP_QUOTE_TOKEN, 'quote');
    const { fetch, calls } = fakeFetch((call) => (isRefresh(call) ? unauthenticated : unauthenticated));
    const onSessionEnded = vi.fn();
    const http = createHttpClient({ fetch, onSessionEnded });
    const results = await Promise.allSettled([http.request('/tickets'), http.request('/assets')]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      const reason = (result as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(HttpError);
      expect(reason).toMatchObject({ status: 401, message: 'Unauthenticated.' });
    }
    expect(calls.filter(isRefresh)).toHaveLength(1);
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    expect(onSessionEnded.mock.calls[0]![0]).toMatchObject({ status: 401 });
    expect(localStorage.getItem(APP_PORTAL_TOKEN)).toBeNull();
    expect(localStorage.getItem(APP_QUOTE_TOKEN)).toBeNull();
    expect(localStorage.getItem(APP_USER)).toBeNull();
  });

  it('does not end the session again for a call answered after the user signed out here', async () => {
    // The list went out signed in and came back 401 (the server ended the session at the logout); the
    // logout's answer clears the session here while the list's refresh is still on its way.
    const { fetch } = fakeFetch((call) => {
      if (!isRefresh(call)) return unauthenticated;
      localStorage.removeItem(APP_PORTAL_TOKEN);
      localStorage.removeItem(APP_USER);
      return unauthenticated;
    });
    const onSessionEnded = vi.fn();
    const http = createHttpClient({ fetch, onSessionEnded });
    await expect(http.request('/tickets')).rejects.toMatchObject({ status: 401 });
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it("keeps the refresh's message: logged in elsewhere", async () => {
    const elsewhere = {
      status: 401,
      body: { message: 'You cannot have multiple login sessions per account.' },
    };
    const { fetch } = fakeFetch((call) => (isRefresh(call) ? elsewhere : unauthenticated));
    const onSessionEnded = vi.fn();
    const http = createHttpClient({ fetch, onSessionEnded });
    await expect(http.request('/tickets')).rejects.toMatchObject({
      status: 401,
      message: 'You cannot have multiple login sessions per account.',
    });
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
  });

  it('a refresh that cannot reach the server also ends the session with a 401', async () => {
    const { fetch } = fakeFetch((call) => {
      if (isRefresh(call)) throw new TypeError('Failed to fetch');
      return unauthenticated;
    });
    const onSessionEnded = vi.fn();
    const http = createHttpClient({ fetch, onSessionEnded });
    await expect(http.request('/tickets')).rejects.toMatchObject({ status: 401 });
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(APP_PORTAL_TOKEN)).toBeNull();
  });
});

describe('requests and answers', () => {
  it('a refused quote token is dropped; the retry goes with the refreshed access token', async () => {
    localStorage.setItem(APP_QUOTE_TOKEN, 'spent');
    const { fetch, calls } = server('new', () => refreshed('new'));
    const http = createHttpClient({ fetch });
    await http.request('/quotes/4');
    expect(calls[0]!.headers['X-Quote-Token']).toBe('spent');
    expect(calls[0]!.headers).not.toHaveProperty('Authorization');
    expect(bearer(calls[2]!)).toBe('Bearer new');
    expect(calls[2]!.headers).not.toHaveProperty('X-Quote-Token');
    expect(localStorage.getItem(APP_QUOTE_TOKEN)).toBeNull();
  });

  it('errors reject with HttpError(message of the body, status, body)', async () => {
    const body = {
      message: 'The name field is required.',
      errors: { name: ['The name field is required.'] },
    };
    const { fetch } = fakeFetch(() => ({ status: 422, body }));
    const http = createHttpClient({ fetch });
    const error = await http.request('/tickets', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ message: 'The name field is required.', status: 422, body });
  });

  it('an error without a JSON body takes the status text', async () => {
    const { fetch } = fakeFetch(() => ({ status: 500, raw: '<html>oops</html>' }));
    const http = createHttpClient({ fetch });
    await expect(http.request('/tickets')).rejects.toMatchObject({
      status: 500,
      message: 'Internal Server Error',
      body: '<html>oops</html>',
    });
  });

  it('sends JSON bodies with cookies, the page address and the abort signal', async () => {
    const { fetch, calls } = fakeFetch(() => ({ status: 204 }));
    const http = createHttpClient({ fetch, baseUrl: '/api' });
    const controller = new AbortController();
    const answer = await http.request('/tickets/1', {
      method: 'PUT',
      body: { description: 'x' },
      signal: controller.signal,
    });
    expect(answer).toMatchObject({ status: 204, body: null });
    expect(calls[0]).toEqual({
      url: '/api/tickets/1',
      method: 'PUT',
      headers: {
        Accept: 'application/json',
        'Accept-Language': 'nl',
        Authorization: 'Bearer old',
        'Content-Type': 'application/json',
        'X-Current-Page': window.location.href,
      },
      body: { description: 'x' },
      credentials: 'include',
      signal: controller.signal,
    });
  });

  it("sends the app's language as Accept-Language, so translated names come in it", async () => {
    const { fetch, calls } = fakeFetch(() => ({ status: 204 }));
    const http = createHttpClient({ fetch, baseUrl: '/api' });
    localStorage.setItem('locale', 'de');
    try {
      await http.request('/ticket-statuses');
      await http.request('/ticket-statuses/1', { headers: { 'Accept-Language': 'nl' } });
    } finally {
      localStorage.removeItem('locale');
    }
    expect(calls.map((c) => (c.headers as Record<string, string>)['Accept-Language'])).toEqual(['de', 'nl']);
  });

  it('downloads blobs', async () => {
    const { fetch, calls } = fakeFetch(() => ({ raw: '%PDF-1.7', contentType: 'application/pdf' }));
    const http = createHttpClient({ fetch });
    const answer = await http.request<Blob>('/quotes/4/download', { method: 'POST', responseType: 'blob' });
    expect(answer.body).toBeInstanceOf(Blob);
    expect(await answer.body.text()).toBe('%PDF-1.7');
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(calls[0]!.headers.Accept).toBe('*/*');
  });

  it('FormData goes as it is, without a JSON content type', async () => {
    const { fetch, calls } = fakeFetch(() => ({ body: { id: 1 } }));
    const http = createHttpClient({ fetch });
    const form = new FormData();
    form.append('is_embedded', '1');
    await http.request('/attachments', { method: 'POST', body: form });
    expect(calls[0]!.body).toBe(form);
    expect(calls[0]!.headers).not.toHaveProperty('Content-Type');
  });

  it('anonymous calls send no token and do not refresh', async () => {
    const { fetch, calls } = fakeFetch(() => unauthenticated);
    const onSessionEnded = vi.fn();
    const http = createHttpClient({ fetch, onSessionEnded });
    await expect(
      http.request('/auth/login', { method: 'POST', anonymous: true, body: {} }),
    ).rejects.toMatchObject({
      status: 401,
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers).not.toHaveProperty('Authorization');
    expect(onSessionEnded).not.toHaveBeenCalled();
  });
});

describe('without a session', () => {
  it('a 401 without any stored token neither refreshes nor ends a session', async () => {
    localStorage.clear();
    const { fetch, calls } = fakeFetch(() => unauthenticated);
    const onSessionEnded = vi.fn();
    const http = createHttpClient({ fetch, onSessionEnded });
    await expect(http.request('/auth/me')).rejects.toMatchObject({ status: 401 });
    expect(calls).toHaveLength(1);
    expect(onSessionEnded).not.toHaveBeenCalled();
  });
});
