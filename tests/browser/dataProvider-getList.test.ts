// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { filterToBuilder, toBuilder } from '../../src/dataProvider/builder.ts';
import { APP_QUOTE_TOKEN } from '../../src/dataProvider/storage.ts';
import { page, query, setup, signedInOnTicketsList, type Reply } from './dataProvider-world.ts';

/**
 * The data provider's getList: a list as the builder items the API parses (sort, filters, paginate, page),
 * the headers every call sends, each filter operator, meta.with/withCount/version/select, and which
 * pending list a new one aborts. The other methods: dataProvider-calls.test.ts.
 */

beforeEach(signedInOnTicketsList);

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
