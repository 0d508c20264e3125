/**
 * The ticket list's default view (issue 18, item 4). The schema's view 'My open tickets' (the default)
 * is the dashboard's 'my open tickets' figure: the same statuses, the same total. A user's choice of
 * default view is their user config `view:tickets.index`, kept on the server (so on every device and at
 * every login), theirs alone; the demo's second-line admin has chosen all tickets.
 */
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { registry } from '../../server/schema/registry.ts';
import { viewFilter } from '../../src/custom/list/systemViews.ts';
import type { DashboardAnswer } from '../../common/dashboard.ts';

const CHOICE = 'view:tickets.index';

describe.each(targets)('the default ticket view on $name', (target) => {
  let t: TestApp;

  const configsOf = async (headers: Record<string, string>) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    return ((body.user ?? body).configs ?? []) as { name: string; value: string | null }[];
  };
  const choiceOf = async (headers: Record<string, string>) =>
    (await configsOf(headers)).find((c) => c.name === CHOICE)?.value;
  const choose = async (headers: Record<string, string>, value: string | null) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/me',
      headers,
      payload: { relationships: { configs: [{ name: CHOICE, value }] } },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(() => t?.close());

  it("'My open tickets' is the dashboard's figure: its statuses and its total", async () => {
    const me = (await t.login('operator@example.com')).body.user;
    const fresh = { authorization: `Bearer ${(await t.login('operator@example.com')).token}` };
    const statuses = await t.app.inject({
      method: 'GET',
      url: '/api/ticket-statuses?builder[0][paginate]=100',
      headers: fresh,
    });
    const tickets = registry().require('tickets');
    const view = tickets.views.find((v) => v.default)!;
    expect(view.name).toBe('my_open');
    const filter = viewFilter(tickets, view, me.id, { 'ticket-statuses': statuses.json().data });

    const dashboard = await t.app.inject({ method: 'GET', url: '/api/dashboard', headers: fresh });
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    const answer = dashboard.json() as DashboardAnswer;
    expect([...(filter.status_id as number[])].sort()).toEqual([...answer.statuses.open].sort());
    expect(filter.operator_id).toEqual([me.id]);

    const builder = [
      { whereIn: ['operator_id', filter.operator_id] },
      { whereIn: ['status_id', filter.status_id] },
    ];
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/tickets?${qs.stringify({ builder })}`,
      headers: fresh,
    });
    expect(list.statusCode, list.body).toBe(200);
    const mine = answer.rows.find((r) => r.key === 'mine')!;
    expect(list.json().total).toBe(mine.counts.open);
    expect(mine.counts.open).toBeGreaterThan(0);
  });

  it("is each user's own choice, kept at the server across logins; null goes back to the standard", async () => {
    const operator = { authorization: `Bearer ${(await t.login('operator@example.com')).token}` };
    const admin = { authorization: `Bearer ${(await t.login('admin@example.com')).token}` };
    // The demo: second line chose all tickets, first line has no choice (the standard: my open tickets).
    expect(await choiceOf(admin)).toBe('system:all');
    expect(await choiceOf(operator)).toBeUndefined();

    await choose(operator, 'system:all');
    expect(await choiceOf(operator)).toBe('system:all');
    // Another login (another device) reads the same choice.
    const again = { authorization: `Bearer ${(await t.login('operator@example.com')).token}` };
    expect(await choiceOf(again)).toBe('system:all');

    await choose(again, 'preset:12');
    expect(await choiceOf(again)).toBe('preset:12');
    const adminAgain = { authorization: `Bearer ${(await t.login('admin@example.com')).token}` };
    expect(await choiceOf(adminAgain)).toBe('system:all');

    await choose(again, null);
    expect(await choiceOf(again)).toBeNull();
  });

  it('cannot be changed by another user through the user configs', async () => {
    const admin = { authorization: `Bearer ${(await t.login('admin@example.com')).token}` };
    const adminId = (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: admin })).json().user
      .id;
    const operator = { authorization: `Bearer ${(await t.login('operator@example.com')).token}` };
    const query = qs.stringify({
      builder: [{ where: ['name', '=', CHOICE] }, { where: ['user_id', '=', adminId] }],
    });
    const found = await t.app.inject({ method: 'GET', url: `/api/user-configs?${query}`, headers: admin });
    expect(found.statusCode, found.body).toBe(200);
    const row = found.json().data[0];
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/api/user-configs/${row.id}`,
      headers: operator,
      payload: { value: '"system:my_open"' },
    });
    expect(refused.statusCode).toBe(403);
    expect(await choiceOf(admin)).toBe('system:all');
  });
});
