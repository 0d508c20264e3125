// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { APP_USER } from '../../src/dataProvider/storage.ts';
import { page, query, setup, signedInOnTicketsList } from './dataProvider-world.ts';

/**
 * The data provider's calls other than getList: react-admin's getOne, getMany, getManyReference,
 * create, update and delete as the API's requests, and the named calls of this app (preset counts, the
 * user's configs, me, system status, order, exports, search). getList: dataProvider-getList.test.ts.
 */

beforeEach(signedInOnTicketsList);

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
