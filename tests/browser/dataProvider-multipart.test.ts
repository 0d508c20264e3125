// @vitest-environment jsdom
/**
 * The data provider's multipart create (a message with its files, an inline image): the form goes as it
 * is, with the token, without a JSON content type (the browser writes the multipart boundary), and a
 * 401 is refreshed and retried like every other call.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '../../src/dataProvider/http.ts';
import { createDataProvider } from '../../src/dataProvider/index.ts';
import { APP_PORTAL_TOKEN } from '../../src/dataProvider/storage.ts';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | undefined;
}

function fakeResponse(status: number, body: unknown): Response {
  const text = body === null ? '' : JSON.stringify(body);
  return {
    ok: status >= 200 && status < 300,
    status,
    statusText: '',
    headers: new Headers(),
    text: async () => text,
    blob: async () => new Blob([text]),
  } as unknown as Response;
}

function setup(reply: (call: Call, index: number) => { status?: number; body?: unknown }) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    const call: Call = {
      url: decodeURIComponent(url),
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body,
      signal: init.signal ?? undefined,
    };
    calls.push(call);
    const { status = 200, body = null } = reply(call, calls.length - 1);
    return fakeResponse(status, body);
  });
  return { calls, dataProvider: createDataProvider(createHttpClient({ fetch })) };
}

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(APP_PORTAL_TOKEN, 'access-1');
});

describe('createMultipart', () => {
  it('POST /api/{r} with the FormData itself and the bearer token; answers the JSON body', async () => {
    const { dataProvider, calls } = setup(() => ({ status: 201, body: { id: 9, message: '<p>Hoi</p>' } }));
    const form = new FormData();
    form.append('message', '<p>Hoi</p>');
    form.append('file[0]', new Blob(['tekst'], { type: 'text/plain' }), 'notitie.txt');
    const answer = await dataProvider.createMultipart('messages', form);
    expect(answer).toEqual({ id: 9, message: '<p>Hoi</p>' });
    expect(calls).toHaveLength(1);
    expect([calls[0]!.method, calls[0]!.url]).toEqual(['POST', '/api/messages']);
    expect(calls[0]!.body).toBe(form);
    expect(calls[0]!.headers.Authorization).toBe('Bearer access-1');
    expect(calls[0]!.headers).not.toHaveProperty('Content-Type');
  });

  it('passes the abort signal on (a cancelled inline image upload)', async () => {
    const { dataProvider, calls } = setup(() => ({ status: 201, body: { id: 1, url: '/x' } }));
    const controller = new AbortController();
    await dataProvider.createMultipart('attachments', new FormData(), { signal: controller.signal });
    expect(calls[0]!.url).toBe('/api/attachments');
    expect(calls[0]!.signal).toBe(controller.signal);
  });

  it('rejects with the HttpError of a refused upload (413 keeps its message)', async () => {
    const { dataProvider } = setup(() => ({ status: 413, body: { message: 'The file is too large.' } }));
    await expect(dataProvider.createMultipart('attachments', new FormData())).rejects.toMatchObject({
      status: 413,
      message: 'The file is too large.',
    });
  });

  it('refreshes on a 401 and sends the same form again', async () => {
    const { dataProvider, calls } = setup((call, i) => {
      if (call.url === '/api/auth/refresh') return { body: { access_token: 'access-2' } };
      return i === 0
        ? { status: 401, body: { message: 'Token expired.' } }
        : { status: 201, body: { id: 3 } };
    });
    const form = new FormData();
    form.append('message', '<p>x</p>');
    expect(await dataProvider.createMultipart('messages', form)).toEqual({ id: 3 });
    expect(calls.map((c) => c.url)).toEqual(['/api/messages', '/api/auth/refresh', '/api/messages']);
    expect(calls[2]!.body).toBe(form);
    expect(calls[2]!.headers.Authorization).toBe('Bearer access-2');
  });
});
