/** Saved list views (table presets): owned by their creator, one default per user and list. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';

describe.each(targets)('table presets on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(() => t?.close());

  async function create(email: string, payload: object) {
    return t.app.inject({ method: 'POST', url: '/api/table-presets', headers: await t.as(email), payload });
  }

  it('belong to the client who saves them, whatever user_id it sends', async () => {
    const client = (await t.login('client@example.com')).body.user;
    const other = (await t.login('other@example.com')).body.user;
    const res = await create('client@example.com', {
      label: 'Open',
      type: 'tickets',
      filter_config: '{"status_id":[1]}',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().user_id).toBe(client.id);
    const forged = await create('client@example.com', {
      label: 'Forged',
      type: 'tickets',
      user_id: other.id,
    });
    // A client's user_id is the server's to fill: the forged one is replaced, not refused.
    expect(forged.statusCode, forged.body).toBe(201);
    expect(forged.json().user_id).toBe(client.id);
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/table-presets',
      headers: await t.as('other@example.com'),
    });
    expect(theirs.json().data.some((p: any) => p.label === 'Open')).toBe(false);
  });

  it('keep one default per user and list: making one default clears the others', async () => {
    const a = (await create('client@example.com', { label: 'A', type: 'quotes', is_default: true })).json();
    const b = (await create('client@example.com', { label: 'B', type: 'quotes', is_default: true })).json();
    const elsewhere = (
      await create('client@example.com', { label: 'C', type: 'assets', is_default: true })
    ).json();
    const headers = await t.as('client@example.com');
    const get = async (id: number) =>
      (await t.app.inject({ method: 'GET', url: `/api/table-presets/${id}`, headers })).json();
    expect((await get(a.id)).is_default).toBe(false);
    expect((await get(b.id)).is_default).toBe(true);
    expect((await get(elsewhere.id)).is_default).toBe(true);
    await t.app.inject({
      method: 'PUT',
      url: `/api/table-presets/${a.id}`,
      headers,
      payload: { is_default: true },
    });
    expect((await get(a.id)).is_default).toBe(true);
    expect((await get(b.id)).is_default).toBe(false);
    const reorder = await t.app.inject({
      method: 'PUT',
      url: `/api/table-presets/${b.id}/update-order`,
      headers,
      payload: { order: 7 },
    });
    expect(reorder.json().order).toBe(7);
  });

  it('an operator’s preset is the operator’s own by default', async () => {
    const admin = (await t.login('admin@example.com')).body.user;
    const res = await create('admin@example.com', { label: 'Mine', type: 'tickets' });
    expect(res.json().user_id).toBe(admin.id);
  });
});
