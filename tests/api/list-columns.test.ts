// The apps' list model (src/custom/list/shape.ts) reads the schemas through Vite's import.meta.glob.
/// <reference types="vite/client" />
/**
 * The builder item `select` (issue 40, item 2): a list asks only for the columns a screen shows. Every
 * name is whitelisted like the rest of the query (422 naming it when unknown or not readable by the
 * caller), `id` and the keys of loaded relations always come along, a client's scope and hidden fields
 * stay as they are, and without the item the answer is the one every caller had before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { serverText } from '../../common/server-texts.ts';
import { registry } from '../../src/schema.ts';
import { listModel } from '../../src/custom/list/shape.ts';

type Row = Record<string, any>;

const builder = (items: unknown[]) => `builder=${encodeURIComponent(JSON.stringify(items))}`;

describe.each(targets)('the columns of a list on $name', (target) => {
  let t: TestApp;

  const call = async (email: string, url: string) => t.app.inject({ url, headers: await t.as(email) });
  const list = async (email: string, url: string): Promise<Row[]> => {
    const res = await call(email, url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Row[];
  };
  const refused = async (email: string, url: string): Promise<Record<string, string[]>> => {
    const res = await call(email, url);
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json();
    expect(typeof body.message).toBe('string');
    return body.errors;
  };

  beforeAll(async () => {
    t = await buildTestApp(target);
  }, 120_000);
  afterAll(() => t?.close());

  it('answers only the chosen fields and id, in the JSON form and in the bracket form', async () => {
    const items = [{ select: ['status_id', 'reference'] }, { paginate: 5 }];
    const json = await list('admin@example.com', `/api/tickets?${builder(items)}`);
    expect(json.length).toBeGreaterThan(0);
    for (const row of json) expect(Object.keys(row).sort()).toEqual(['id', 'reference', 'status_id']);
    const brackets = await list(
      'admin@example.com',
      '/api/tickets?builder[0][select][0]=status_id&builder[0][select][1]=reference&builder[1][paginate]=5',
    );
    expect(brackets).toEqual(json);
    // The same rows and values as the full list: only the other columns are left out.
    const full = await list('admin@example.com', '/api/tickets?builder[0][paginate]=5');
    expect(json).toEqual(full.map((r) => ({ id: r.id, reference: r.reference, status_id: r.status_id })));
  });

  it('chooses the columns of loaded relations too, keeping the keys they are found by', async () => {
    const items = [{ select: ['reference', 'status.name', 'messages.message'] }, { paginate: 5 }];
    const rows = await list('admin@example.com', `/api/tickets?${builder(items)}&with=status,messages`);
    const full = await list('admin@example.com', '/api/tickets?builder[0][paginate]=5&with=status,messages');
    expect(rows.map((r) => r.id)).toEqual(full.map((r) => r.id));
    rows.forEach((row, i) => {
      // status_id is how the status is found: it comes along though not asked for.
      expect(Object.keys(row).sort()).toEqual(['id', 'messages', 'reference', 'status', 'status_id']);
      expect(row.status).toEqual({ id: full[i]!.status.id, name: full[i]!.status.name });
      expect(row.messages.map((m: Row) => m.id)).toEqual(full[i]!.messages.map((m: Row) => m.id));
      for (const m of row.messages) {
        expect(m.message).toBe(full[i]!.messages.find((f: Row) => f.id === m.id).message);
        expect(m).not.toHaveProperty('morphable_type');
      }
    });
    // A relation the item names no field of keeps all its fields; so does a level with none named.
    const relOnly = await list(
      'admin@example.com',
      `/api/tickets?${builder([{ select: ['status.name'] }, { paginate: 5 }])}&with=status,company`,
    );
    const fullWith = await list(
      'admin@example.com',
      '/api/tickets?builder[0][paginate]=5&with=status,company',
    );
    expect(relOnly.map(({ status: _s, ...rest }) => rest)).toEqual(
      fullWith.map(({ status: _s, ...rest }) => rest),
    );
    expect(relOnly.map((r) => Object.keys(r.status ?? { id: 0, name: '' }).sort())).toEqual(
      relOnly.map(() => ['id', 'name']),
    );
  });

  it('refuses unknown names, names not loaded and fields the caller may not read, naming them', async () => {
    const unknown = await refused('admin@example.com', `/api/tickets?${builder([{ select: ['nope'] }])}`);
    expect(unknown).toEqual({ 'builder.0': [serverText('select_unknown', { name: 'nope' })] });
    const notLoaded = await refused(
      'admin@example.com',
      `/api/tickets?${builder([{ paginate: 5 }, { select: ['reference', 'status.name'] }])}`,
    );
    expect(notLoaded).toEqual({ 'builder.1': [serverText('select_not_loaded', { name: 'status.name' })] });
    const inRelation = await refused(
      'admin@example.com',
      `/api/tickets?${builder([{ select: ['status.secret'] }])}&with=status`,
    );
    expect(inRelation).toEqual({ 'builder.0': [serverText('select_unknown', { name: 'status.secret' })] });
    // writeOnly: no operator reads a password.
    const password = await refused(
      'admin@example.com',
      `/api/operators?${builder([{ select: ['password'] }])}`,
    );
    expect(password).toEqual({ 'builder.0': [serverText('select_unknown', { name: 'password' })] });
    // A client reads only the portal's fields of a ticket: operator_id is not one.
    const hidden = await refused(
      'client@example.com',
      `/api/tickets?${builder([{ select: ['reference', 'operator_id'] }])}`,
    );
    expect(hidden).toEqual({ 'builder.0': [serverText('select_unknown', { name: 'operator_id' })] });
    const shape = await refused('admin@example.com', `/api/tickets?${builder([{ select: [] }])}`);
    expect(shape).toEqual({ 'builder.0': ['select takes a list of field names.'] });
    const inside = await refused(
      'admin@example.com',
      `/api/tickets?${builder([{ whereHas: ['status', [{ select: ['name'] }]] }])}`,
    );
    expect(Object.keys(inside)).toEqual(['builder.0.1.0']);
  });

  it('refuses a select in another version of a list, whose rows would answer empty values', async () => {
    const items = builder([{ select: ['code'] }]);
    expect(await refused('admin@example.com', `/api/invoices?${items}&version=2`)).toEqual({
      'builder.0': [serverText('select_version')],
    });
    // The invoicing collection answers in version 2 unless asked for 1.
    expect(await refused('admin@example.com', `/api/invoicing/invoices?${items}`)).toEqual({
      builder: [serverText('select_version')],
    });
    const first = await list('admin@example.com', `/api/invoicing/invoices?${items}&version=1`);
    expect(first.length).toBeGreaterThan(0);
    for (const row of first) expect(Object.keys(row).sort()).toEqual(['code', 'id']);
    expect(await list('admin@example.com', `/api/invoices?${items}&version=1`)).toEqual(first);
  });

  it("leaves a client's scope and hidden fields as they are", async () => {
    for (const email of ['client@example.com', 'other@example.com']) {
      const full = await list(email, '/api/tickets?builder[0][paginate]=100&with=status');
      const chosen = await list(
        email,
        `/api/tickets?${builder([{ select: ['reference', 'status.name_client'] }, { paginate: 100 }])}&with=status`,
      );
      expect(chosen.map((r) => r.id)).toEqual(full.map((r) => r.id));
      for (const row of chosen) {
        expect(Object.keys(row).sort()).toEqual(['id', 'reference', 'status', 'status_id']);
        if (row.status) expect(Object.keys(row.status).sort()).toEqual(['id', 'name_client']);
      }
      // The back office's name of a status is not the portal's: not even through a relation.
      const hidden = await refused(
        email,
        `/api/tickets?${builder([{ select: ['status.name'] }])}&with=status`,
      );
      expect(hidden).toEqual({ 'builder.0': [serverText('select_unknown', { name: 'status.name' })] });
    }
    const admin = await list('admin@example.com', '/api/tickets?builder[0][paginate]=100');
    const client = await list(
      'client@example.com',
      `/api/tickets?${builder([{ select: ['reference'] }, { paginate: 100 }])}`,
    );
    const other = await list(
      'other@example.com',
      `/api/tickets?${builder([{ select: ['reference'] }, { paginate: 100 }])}`,
    );
    expect(client.length).toBeGreaterThan(0);
    expect(client.length).toBeLessThan(admin.length);
    const clientIds = new Set(client.map((r) => r.id));
    expect(other.filter((r) => clientIds.has(r.id))).toEqual([]);
  });

  it('answers as before without the item, and counts and sorts the same with it', async () => {
    const url =
      '/api/tickets?builder[0][orderBy][0]=id&builder[0][orderBy][1]=desc&builder[1][paginate]=3&with=company,status&withCount=messages';
    const before = await call('admin@example.com', url);
    const again = await call('admin@example.com', url);
    expect(again.body).toBe(before.body);
    const all = before.json();
    const keys = Object.keys(all.data[0]).sort();
    expect(keys).toContain('description');
    expect(keys).toContain('messages_count');
    const withItem = await call(
      'admin@example.com',
      `/api/tickets?${builder([{ orderBy: ['id', 'desc'] }, { paginate: 3 }, { select: ['reference'] }])}&with=company,status&withCount=messages`,
    );
    const page = withItem.json();
    expect(page.total).toBe(all.total);
    expect(page.data.map((r: Row) => r.id)).toEqual(all.data.map((r: Row) => r.id));
    expect(page.data[0].messages_count).toBe(all.data[0].messages_count);
    expect(page.data[0].company).toEqual(all.data[0].company);
    expect(page.data[0]).not.toHaveProperty('description');
  });

  it('does not let a select change what a preset counts or an export reads', async () => {
    const res = await call(
      'admin@example.com',
      `/api/presets-result-count/tickets?builders=${encodeURIComponent(
        JSON.stringify([
          { id: 1, builder: [] },
          { id: 2, builder: [{ select: ['reference'] }] },
        ]),
      )}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const [a, b] = res.json() as { count: number }[];
    expect(b!.count).toBe(a!.count);
  });
});

describe.each(targets)("the apps' list screens on $name", (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  }, 120_000);
  afterAll(() => t?.close());

  it.each([
    ['backoffice', 'admin@example.com'],
    ['portal', 'client@example.com'],
  ] as const)('ask, in the %s, for names the server accepts, and get those', async (appKind, email) => {
    const headers = await t.as(email);
    const resources = [...registry.resources.values()].filter((r) =>
      appKind === 'portal' ? r.portal?.actions.includes('index') : r.actions.includes('index'),
    );
    const answered: string[] = [];
    for (const resource of resources) {
      const model = listModel(resource, appKind);
      const columns = model.defaultColumns;
      const select = model.selectFor(columns);
      const relations = model.relationsFor(columns);
      const url =
        `/api/${resource.name}?${builder([{ paginate: 5 }, { select }])}` +
        (relations.length ? `&with=${relations.join(',')}` : '');
      const res = await t.app.inject({ url, headers });
      // 403: a list this caller may not open at all (the apps do not show it either).
      if (res.statusCode === 403) continue;
      expect(res.statusCode, `${resource.name}: ${res.body}`).toBe(200);
      answered.push(resource.name);
      const allowed = new Set(['id', ...select.filter((n) => !n.includes('.')), ...relations]);
      for (const row of res.json().data as Row[]) {
        // Of the record's fields only those: computed ones (an attachment's url) come as before.
        const keys = new Set(relations.map((r) => (resource.relations[r] as { key?: string }).key));
        const extra = Object.keys(row).filter(
          (k) => Object.hasOwn(resource.fields, k) && !allowed.has(k) && !keys.has(k),
        );
        expect(extra, resource.name).toEqual([]);
      }
    }
    expect(answered).toContain('tickets');
    expect(answered.length).toBeGreaterThan(appKind === 'portal' ? 3 : 20);
  });
});
