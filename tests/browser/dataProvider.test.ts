// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpClient } from '../../src/dataProvider/http.ts';
import { createDataProvider } from '../../src/dataProvider/index.ts';
import { filterToBuilder, toBuilder } from '../../src/dataProvider/builder.ts';
import { RELOAD_DEBOUNCE_MS, RELOAD_EVENT, debounce, requestReload } from '../../src/dataProvider/reload.ts';
import {
  APP_PORTAL_TOKEN,
  APP_QUOTE_TOKEN,
  APP_USER,
  LOCALE,
  getItem,
  setItem,
} from '../../src/dataProvider/storage.ts';

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

const page = (data: unknown[], total = data.length) => ({
  body: { data, total, from: 1, to: data.length, per_page: 15, current_page: 1, last_page: 1 },
});

function setup(reply?: (call: Call) => Reply | Promise<Reply>) {
  const fake = fakeFetch(reply);
  const http = createHttpClient({ fetch: fake.fetch });
  return { ...fake, dataProvider: createDataProvider(http) };
}

const query = (url: string) => url.slice(url.indexOf('?') + 1).split('&');

beforeEach(() => {
  localStorage.clear();
  localStorage.setItem(APP_PORTAL_TOKEN, 'access-1');
  window.history.replaceState(null, '', '/app/tickets?view=2');
});

describe('getList', () => {
  it('sends the default tickets list as builder items: sort, then paginate, then page', async () => {
    const { dataProvider, calls } = setup(() => page([{ id: 1 }], 31));
    const result = await dataProvider.getList('tickets', {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'updated_at', order: 'DESC' },
      filter: {},
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe('GET');
    expect(calls[0]!.url).toBe(
      '/api/tickets?builder[0][orderBy][0]=updated_at&builder[0][orderBy][1]=desc&builder[1][paginate]=15&page=1',
    );
    expect(result).toEqual({ data: [{ id: 1 }], total: 31, meta: { from: 1, to: 1, last_page: 1 } });
  });

  it('sends the bearer token, the current page, cookies and Accept JSON', async () => {
    const { dataProvider, calls } = setup(() => page([]));
    await dataProvider.getList('tickets', {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'updated_at', order: 'DESC' },
      filter: {},
    });
    expect(calls[0]!.headers).toEqual({
      Accept: 'application/json',
      'Accept-Language': 'nl',
      Authorization: 'Bearer access-1',
      'X-Current-Page': 'http://localhost:3000/app/tickets?view=2',
    });
    expect(calls[0]!.credentials).toBe('include');
  });

  it('sends the quote token instead of the bearer when one is stored', async () => {
    localStorage.setItem(APP_QUOTE_TOKEN, 'quote-abc');
    const { dataProvider, calls } = setup(() => ({ body: { id: 7 } }));
    await dataProvider.getOne('quotes', { id: 7 });
    expect(calls[0]!.headers['X-Quote-Token']).toBe('quote-abc');
    expect(calls[0]!.headers).not.toHaveProperty('Authorization');
    expect(calls[0]!.headers['X-Current-Page']).toBe(window.location.href);
  });

  const base = 'builder[0][orderBy][0]=name&builder[0][orderBy][1]=asc';
  const listWith = async (filter: Record<string, unknown>) => {
    const { dataProvider, calls } = setup(() => page([]));
    await dataProvider.getList('assets', {
      pagination: { page: 2, perPage: 25 },
      sort: { field: 'name', order: 'ASC' },
      filter,
    });
    return calls[0]!.url;
  };

  it.each<[string, Record<string, unknown>, string]>([
    ['q -> s', { q: 'printer' }, 'builder[1][s]=printer'],
    [
      'scalar -> where =',
      { status_id: 3 },
      'builder[1][where][0]=status_id&builder[1][where][1]==&builder[1][where][2]=3',
    ],
    [
      'array -> whereIn',
      { company_id: [4, 5] },
      'builder[1][whereIn][0]=company_id&builder[1][whereIn][1][0]=4&builder[1][whereIn][1][1]=5',
    ],
    ['[null] -> whereNull (the "(none)" option)', { client_id: [null] }, 'builder[1][whereNull]=client_id'],
    ['null -> whereNull', { client_id: null }, 'builder[1][whereNull]=client_id'],
    [
      '@!= -> where !=',
      { 'status_id@!=': 2 },
      'builder[1][where][0]=status_id&builder[1][where][1]=!=&builder[1][where][2]=2',
    ],
    [
      '@< -> where <',
      { 'id@<': 10 },
      'builder[1][where][0]=id&builder[1][where][1]=<&builder[1][where][2]=10',
    ],
    [
      '@<= -> where <=',
      { 'id@<=': 10 },
      'builder[1][where][0]=id&builder[1][where][1]=<=&builder[1][where][2]=10',
    ],
    [
      '@> -> where >',
      { 'id@>': 10 },
      'builder[1][where][0]=id&builder[1][where][1]=>&builder[1][where][2]=10',
    ],
    [
      '@>= -> where >=',
      { 'id@>=': 10 },
      'builder[1][where][0]=id&builder[1][where][1]=>=&builder[1][where][2]=10',
    ],
    [
      '@= -> where =',
      { 'id@=': 10 },
      'builder[1][where][0]=id&builder[1][where][1]==&builder[1][where][2]=10',
    ],
    [
      '@like -> where like',
      { 'name@like': 'lap top' },
      'builder[1][where][0]=name&builder[1][where][1]=like&builder[1][where][2]=lap top',
    ],
    ['@null -> whereNull', { 'warranty_until@null': true }, 'builder[1][whereNull]=warranty_until'],
    [
      '@notnull -> whereNotNull',
      { 'warranty_until@notnull': true },
      'builder[1][whereNotNull]=warranty_until',
    ],
    [
      '@between -> whereBetween',
      { 'warranty_until@between': ['2026-01-01', '2026-12-31'] },
      'builder[1][whereBetween][0]=warranty_until&builder[1][whereBetween][1][0]=2026-01-01&builder[1][whereBetween][1][1]=2026-12-31',
    ],
    [
      '@between with one bound -> where >=',
      { 'warranty_until@between': ['2026-01-01', ''] },
      'builder[1][where][0]=warranty_until&builder[1][where][1]=>=&builder[1][where][2]=2026-01-01',
    ],
    [
      '@builder -> raw items appended',
      {
        '@builder': [
          { whereHas: ['company', [{ where: ['city', '=', 'Utrecht'] }]] },
          { doesntHave: 'messages' },
        ],
      },
      'builder[1][whereHas][0]=company&builder[1][whereHas][1][0][where][0]=city&builder[1][whereHas][1][0][where][1]==&builder[1][whereHas][1][0][where][2]=Utrecht&builder[2][doesntHave]=messages',
    ],
  ])('filter %s', async (_name, filter, items) => {
    const last = items.match(/builder\[(\d+)\]/g)!.map((m) => Number(m.slice(8, -1)));
    const paginate = `builder[${Math.max(...last) + 1}][paginate]=25`;
    expect(await listWith(filter)).toBe(`/api/assets?${base}&${items}&${paginate}&page=2`);
  });

  it('ignores undefined, empty and unset values and keeps the filter key order', async () => {
    const url = await listWith({
      a: undefined,
      b: '',
      c: [],
      'd@null': false,
      'e@between': ['', ''],
      '@builder': [{ whereNotNull: 'serial_number' }],
      status_id: 1,
      q: 'x',
    });
    expect(query(url)).toEqual([
      ...base.split('&'),
      'builder[1][where][0]=status_id',
      'builder[1][where][1]==',
      'builder[1][where][2]=1',
      'builder[2][s]=x',
      'builder[3][whereNotNull]=serial_number',
      'builder[4][paginate]=25',
      'page=2',
    ]);
  });

  it('rejects an unknown filter operator', () => {
    expect(() => filterToBuilder({ 'name@ilike': 'x' })).toThrow('Unknown filter operator "ilike"');
  });

  it('leaves the sort to the server when none is given', () => {
    expect(toBuilder({ pagination: { page: 1, perPage: 5 }, filter: { q: 'a' } })).toEqual([
      { s: 'a' },
      { paginate: 5 },
    ]);
  });

  it('sends meta.with, meta.withCount and meta.version', async () => {
    const { dataProvider, calls } = setup(() => page([]));
    await dataProvider.getList('tickets', {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'updated_at', order: 'DESC' },
      filter: {},
      meta: { with: ['company', 'client'], withCount: ['messages'], version: 2 },
    });
    expect(calls[0]!.url).toBe(
      '/api/tickets?builder[0][orderBy][0]=updated_at&builder[0][orderBy][1]=desc&builder[1][paginate]=15&page=1' +
        '&with[0]=company&with[1]=client&withCount[0]=messages&version=2',
    );
  });

  it('sends meta.select as the last builder item, and nothing for an empty one', async () => {
    const { dataProvider, calls } = setup(() => page([]));
    const params = {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'updated_at', order: 'DESC' as const },
      filter: { status_id: 3 },
    };
    await dataProvider.getList('tickets', {
      ...params,
      meta: { with: ['status'], select: ['reference', 'status.name'] },
    });
    expect(calls[0]!.url).toBe(
      '/api/tickets?builder[0][orderBy][0]=updated_at&builder[0][orderBy][1]=desc' +
        '&builder[1][where][0]=status_id&builder[1][where][1]==&builder[1][where][2]=3&builder[2][paginate]=15' +
        '&builder[3][select][0]=reference&builder[3][select][1]=status.name&page=1&with[0]=status',
    );
    await dataProvider.getList('tickets', { ...params, meta: { select: [] } });
    expect(calls[1]!.url).not.toContain('select');
  });

  it('aborts a pending getList of the same list when a new one starts', async () => {
    const { dataProvider, calls } = setup(
      (call) =>
        new Promise<Reply>((resolve, reject) => {
          call.signal?.addEventListener('abort', () => reject(call.signal!.reason));
          if (calls.length > 1) resolve(page([{ id: 2 }]));
        }),
    );
    const params = {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'id', order: 'ASC' as const },
      filter: {},
    };
    const first = dataProvider.getList('tickets', { ...params, filter: { q: 'a' } });
    const second = dataProvider.getList('tickets', { ...params, filter: { q: 'ab' } });
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[0]!.signal!.aborted).toBe(true);
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    await expect(second).resolves.toMatchObject({ data: [{ id: 2 }] });
    expect(calls[1]!.signal!.aborted).toBe(false);
  });

  it('does not abort a list of another resource or with other meta', async () => {
    const { dataProvider, calls } = setup(() => page([]));
    const params = {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'id', order: 'ASC' as const },
      filter: {},
    };
    const a = dataProvider.getList('tickets', params);
    const b = dataProvider.getList('assets', params);
    const c = dataProvider.getList('tickets', { ...params, meta: { with: ['company'] } });
    await Promise.all([a, b, c]);
    expect(calls.map((c) => c.signal!.aborted)).toEqual([false, false, false]);
  });

  it("passes react-admin's abort signal on", async () => {
    const { dataProvider, calls } = setup(
      (call) =>
        new Promise<Reply>((_resolve, reject) =>
          call.signal?.addEventListener('abort', () => reject(call.signal!.reason)),
        ),
    );
    const controller = new AbortController();
    const pending = dataProvider.getList('tickets', {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    controller.abort(new DOMException('gone', 'AbortError'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls[0]!.signal!.aborted).toBe(true);
    expect(dataProvider.supportAbortSignal).toBe(true);
  });
});

describe('the other react-admin methods', () => {
  it('getOne: GET /api/{r}/{id} with meta.with', async () => {
    const { dataProvider, calls } = setup(() => ({ body: { id: 5, name: 'Laptop' } }));
    const result = await dataProvider.getOne('assets', { id: 5, meta: { with: ['company'] } });
    expect(calls[0]).toMatchObject({ method: 'GET', url: '/api/assets/5?with[0]=company' });
    expect(result).toEqual({ data: { id: 5, name: 'Laptop' } });
  });

  it('getMany: one list call with whereIn id and paginate = number of ids', async () => {
    const { dataProvider, calls } = setup(() => page([{ id: 1 }, { id: 3 }]));
    const result = await dataProvider.getMany('companies', { ids: [1, 3, 3] });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(
      '/api/companies?builder[0][whereIn][0]=id&builder[0][whereIn][1][0]=1&builder[0][whereIn][1][1]=3&builder[1][paginate]=2',
    );
    expect(result).toEqual({ data: [{ id: 1 }, { id: 3 }] });
  });

  it('getMany: more than 100 ids go in chunks of 100', async () => {
    const { dataProvider, calls } = setup((call) => {
      const ids = query(call.url)
        .filter((p) => p.startsWith('builder[0][whereIn][1]'))
        .map((p) => ({ id: Number(p.split('=')[1]) }));
      return page(ids);
    });
    const ids = Array.from({ length: 150 }, (_, i) => i + 1);
    const result = await dataProvider.getMany('companies', { ids });
    expect(calls).toHaveLength(2);
    expect(calls[0]!.url).toContain('builder[1][paginate]=100');
    expect(calls[1]!.url).toContain('builder[0][whereIn][1][0]=101');
    expect(calls[1]!.url).toContain('builder[1][paginate]=50');
    expect(result.data.map((r) => r.id)).toEqual(ids);
  });

  it('getManyReference: the target is a where after the sort', async () => {
    const { dataProvider, calls } = setup(() => page([{ id: 9 }], 1));
    const result = await dataProvider.getManyReference('messages', {
      target: 'ticket_id',
      id: 12,
      pagination: { page: 1, perPage: 5 },
      sort: { field: 'created_at', order: 'ASC' },
      filter: { visible_to_client: true },
    });
    expect(calls[0]!.url).toBe(
      '/api/messages?builder[0][orderBy][0]=created_at&builder[0][orderBy][1]=asc' +
        '&builder[1][where][0]=ticket_id&builder[1][where][1]==&builder[1][where][2]=12' +
        '&builder[2][where][0]=visible_to_client&builder[2][where][1]==&builder[2][where][2]=true' +
        '&builder[3][paginate]=5&page=1',
    );
    expect(result).toEqual({ data: [{ id: 9 }], total: 1, meta: { from: 1, to: 1, last_page: 1 } });
  });

  it('create: POST the data as JSON', async () => {
    const { dataProvider, calls } = setup(() => ({ status: 201, body: { id: 8, description: 'Printer' } }));
    const result = await dataProvider.create('tickets', { data: { description: 'Printer' } });
    expect([calls[0]!.method, calls[0]!.url, calls[0]!.body]).toEqual([
      'POST',
      '/api/tickets',
      { description: 'Printer' },
    ]);
    expect(calls[0]!.headers['Content-Type']).toBe('application/json');
    expect(result).toEqual({ data: { id: 8, description: 'Printer' } });
  });

  it('update: PUT only the changed fields', async () => {
    const { dataProvider, calls } = setup(() => ({ body: { id: 4, name: 'New', city: 'Delft' } }));
    const previousData = {
      id: 4,
      name: 'Old',
      city: 'Delft',
      tags: [1, 2],
      company: { id: 1, name: 'Jansen BV' },
    };
    const result = await dataProvider.update('assets', {
      id: 4,
      data: { ...previousData, name: 'New', tags: [1, 2], company: { id: 1, name: 'Jansen BV' } },
      previousData,
    });
    expect(calls).toHaveLength(1);
    expect([calls[0]!.method, calls[0]!.url, calls[0]!.body]).toEqual([
      'PUT',
      '/api/assets/4',
      { name: 'New' },
    ]);
    expect(result).toEqual({ data: { id: 4, name: 'New', city: 'Delft' } });
  });

  it('update: no changes, no call', async () => {
    const { dataProvider, calls } = setup();
    const previousData = { id: 4, name: 'Same', tags: [1] };
    const result = await dataProvider.update('assets', {
      id: 4,
      data: { ...previousData, tags: [1] },
      previousData,
    });
    expect(calls).toHaveLength(0);
    expect(result).toEqual({ data: previousData });
  });

  it('updateMany: one PUT per id', async () => {
    const { dataProvider, calls } = setup();
    const result = await dataProvider.updateMany('tickets', { ids: [1, 2], data: { status_id: 2 } });
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['PUT', '/api/tickets/1', { status_id: 2 }],
      ['PUT', '/api/tickets/2', { status_id: 2 }],
    ]);
    expect(result).toEqual({ data: [1, 2] });
  });

  it('delete and deleteMany: DELETE per id', async () => {
    const { dataProvider, calls } = setup(() => ({ body: { message: 'Ticket deleted.' } }));
    expect(
      await dataProvider.delete('tickets', { id: 3, previousData: { id: 3, description: 'x' } }),
    ).toEqual({
      data: { id: 3, description: 'x' },
    });
    expect(await dataProvider.deleteMany('tickets', { ids: [4, 5] })).toEqual({ data: [4, 5] });
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['DELETE', '/api/tickets/3', undefined],
      ['DELETE', '/api/tickets/4', undefined],
      ['DELETE', '/api/tickets/5', undefined],
    ]);
  });
});

describe('the named calls', () => {
  it('presetCounts: builders of {id, builder} without paging', async () => {
    const { dataProvider, calls } = setup(() => ({
      body: [
        { id: 1, count: 4 },
        { id: 'mine', count: 0 },
      ],
    }));
    const result = await dataProvider.presetCounts('tickets', [
      { id: 1, filter: { status_id: [1, 4] } },
      { id: 'mine', filter: { operator_id: 'me', q: 'vpn' } },
    ]);
    expect(calls[0]!.method).toBe('GET');
    expect(calls[0]!.url).toBe(
      '/api/presets-result-count/tickets?builders[0][id]=1' +
        '&builders[0][builder][0][whereIn][0]=status_id&builders[0][builder][0][whereIn][1][0]=1&builders[0][builder][0][whereIn][1][1]=4' +
        '&builders[1][id]=mine' +
        '&builders[1][builder][0][where][0]=operator_id&builders[1][builder][0][where][1]==&builders[1][builder][0][where][2]=me' +
        '&builders[1][builder][1][s]=vpn',
    );
    expect(result).toEqual([
      { id: 1, count: 4 },
      { id: 'mine', count: 0 },
    ]);
  });

  it('saveConfigs: POST /api/auth/me {relationships: {configs}} and keeps the returned user', async () => {
    const user = {
      id: 2,
      permissions_names: [],
      configs: [{ name: 'tickets.index', value: { perPage: 25 } }],
    };
    const { dataProvider, calls } = setup(() => ({ body: { user } }));
    const result = await dataProvider.saveConfigs([{ name: 'tickets.index', value: { perPage: 25 } }]);
    expect([calls[0]!.method, calls[0]!.url, calls[0]!.body]).toEqual([
      'POST',
      '/api/auth/me',
      { relationships: { configs: [{ name: 'tickets.index', value: { perPage: 25 } }] } },
    ]);
    expect(result).toEqual(user);
    expect(JSON.parse(localStorage.getItem(APP_USER)!)).toEqual(user);
  });

  it('me: GET /api/auth/me', async () => {
    const user = { id: 2, permissions_names: ['portal.tickets.index'] };
    const { dataProvider, calls } = setup(() => ({ body: { user, lists: { priorities: [] } } }));
    expect(await dataProvider.me()).toEqual({ user, lists: { priorities: [] } });
    expect(calls[0]).toMatchObject({ method: 'GET', url: '/api/auth/me' });
    expect(JSON.parse(localStorage.getItem(APP_USER)!)).toEqual(user);
  });

  it('systemStatus: GET /api/system/status without a token', async () => {
    const status = { setup_completed: true, trial_ends_in: null, tenant_name: 'Acme IT', tenant: 'acme' };
    const { dataProvider, calls } = setup(() => ({ body: status }));
    expect(await dataProvider.systemStatus()).toEqual(status);
    expect(calls[0]).toMatchObject({ method: 'GET', url: '/api/system/status', credentials: 'include' });
    expect(calls[0]!.headers).not.toHaveProperty('Authorization');
    expect(calls[0]!.headers['X-Current-Page']).toBe(window.location.href);
  });

  it('updateOrder: PUT /api/{r}/{id}/update-order {order}', async () => {
    const { dataProvider, calls } = setup(() => ({ body: { id: 6, order: 2 } }));
    expect(await dataProvider.updateOrder('table-presets', 6, 2)).toEqual({ id: 6, order: 2 });
    expect([calls[0]!.method, calls[0]!.url, calls[0]!.body]).toEqual([
      'PUT',
      '/api/table-presets/6/update-order',
      { order: 2 },
    ]);
  });

  it('exportList: POST /api/exports {userId, model, filter} and answers the message', async () => {
    const { dataProvider, calls } = setup(() => ({
      body: { message: 'The export will be e-mailed to you.' },
    }));
    const message = await dataProvider.exportList('tickets', { userId: 2, filter: { status_id: 1 } });
    expect(message).toBe('The export will be e-mailed to you.');
    expect([calls[0]!.method, calls[0]!.url, calls[0]!.body]).toEqual([
      'POST',
      '/api/exports',
      { userId: 2, model: 'tickets', filter: [{ where: ['status_id', '=', 1] }] },
    ]);
  });

  it('exportList sends the order first, the visible columns and the language when given', async () => {
    const { dataProvider, calls } = setup(() => ({ body: { message: 'Gestart.' } }));
    const columns = [{ name: 'reference', label: 'Referentie' }];
    await dataProvider.exportList('tickets', {
      userId: 2,
      filter: { status_id: 1 },
      sort: { field: 'updated_at', order: 'desc' },
      columns,
      locale: 'nl',
    });
    expect(calls[0]!.body).toEqual({
      userId: 2,
      model: 'tickets',
      filter: [{ orderBy: ['updated_at', 'desc'] }, { where: ['status_id', '=', 1] }],
      columns,
      locale: 'nl',
    });
  });

  it('exportJobs: GET /api/exports; exportFile: GET /api/exports/{id}/{format} as a Blob', async () => {
    const job = { id: 4, model: 'tickets', status: 'done' };
    const { dataProvider, calls } = setup((call) => ({
      body: call.url === '/api/exports' ? { data: [job] } : 'id;naam',
    }));
    expect(await dataProvider.exportJobs()).toEqual([job]);
    const file = await dataProvider.exportFile(4, 'xlsx');
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ['GET', '/api/exports'],
      ['GET', '/api/exports/4/xlsx'],
    ]);
    expect(file.blob).toBeInstanceOf(Blob);
    // Without a Content-Disposition the name still says what it is.
    expect(file.fileName).toBe('export-4.xlsx');
  });

  it('search: GET /api/search?q=…, the text encoded, with the caller’s signal; answers the groups', async () => {
    const groups = [{ resource: 'tickets', records: [{ id: 3, label: 'T-2026-00003', detail: 'Printer' }] }];
    const { dataProvider, calls } = setup(() => ({ body: { data: groups } }));
    const controller = new AbortController();
    expect(await dataProvider.search('a&b c', { signal: controller.signal })).toEqual(groups);
    expect(calls.map((c) => [c.method, c.url])).toEqual([['GET', '/api/search?q=a&b c']]);
    expect(calls[0]!.signal).toBe(controller.signal);
  });
});

describe('reload', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('requestReload dispatches app:reload once per burst, 100 ms after the last request', () => {
    vi.useFakeTimers();
    const listener = vi.fn();
    window.addEventListener(RELOAD_EVENT, listener);
    requestReload();
    vi.advanceTimersByTime(60);
    requestReload();
    requestReload();
    vi.advanceTimersByTime(RELOAD_DEBOUNCE_MS - 1);
    expect(listener).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(listener).toHaveBeenCalledTimes(1);
    requestReload();
    vi.advanceTimersByTime(RELOAD_DEBOUNCE_MS);
    expect(listener).toHaveBeenCalledTimes(2);
    window.removeEventListener(RELOAD_EVENT, listener);
    expect(RELOAD_EVENT).toBe('app:reload');
    expect(RELOAD_DEBOUNCE_MS).toBe(100);
  });

  it('debounce passes the last arguments and can be cancelled', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const debounced = debounce(fn, 50);
    debounced(1);
    debounced(2);
    vi.advanceTimersByTime(50);
    expect(fn).toHaveBeenCalledExactlyOnceWith(2);
    debounced(3);
    debounced.cancel();
    vi.advanceTimersByTime(100);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

describe('storage', () => {
  it('has the spec keys and survives a browser that refuses storage', () => {
    expect([APP_PORTAL_TOKEN, APP_QUOTE_TOKEN, APP_USER, LOCALE]).toEqual([
      'APP_PORTAL_TOKEN',
      'APP_QUOTE_TOKEN',
      'APP_USER',
      'locale',
    ]);
    const spy = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    setItem(LOCALE, 'en');
    expect(getItem(LOCALE)).toBe('en');
    spy.mockRestore();
  });
});
