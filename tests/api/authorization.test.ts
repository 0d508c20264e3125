/**
 * The authorization matrix, generated from the schemas: every resource x every kind of caller x every
 * generic action, each with the status it must get. A caller's permissions come from its login (the
 * role the demo seed gave it); what each status must be follows from the schema and those names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/schema/registry.ts';
import type { Resource } from '../../common/schema/types.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { FINANCE, makeFinanceClient } from './finance-client.ts';

const CALLERS = [
  'admin@example.com',
  'operator@example.com',
  'client@example.com',
  'other@example.com',
  // A member of client@example.com's company (issue 39): her company role sees only her own tickets.
  'lotte.smit@jansenbv.nl',
  // A finance client of the same company (issue 39), made by the test: the demo has none, and its
  // accounts are a fixed contract. Her role sees invoices, quotes, subscriptions and contracts, own tickets.
  FINANCE,
  'anonymous',
] as const;
type Caller = (typeof CALLERS)[number];
const ACTIONS = ['index', 'show', 'store', 'update', 'destroy'] as const;
const MISSING_ID = 2147483647;
/**
 * Resources without generic actions whose list is a route of their own, scoped to the caller (issue 19:
 * each operator's notifications and preferences; tests/api/live-notifications.test.ts tests them
 * further): operators only, so a client is refused and nobody signed out gets in.
 */
const OWN_OPERATOR_LISTS = new Set(['notifications', 'notification-preferences']);
/**
 * Resources whose every call is a route of their own for operators who may read reports, on the
 * caller's own records only (issue 36, item 4; tests/api/report-subscriptions-routes.test.ts tests them
 * further): a record that is missing or someone else's is a 404, the probe body a 422.
 */
const OWN_REPORT_RECORDS = new Set(['report-subscriptions']);
/**
 * Relations whose `with` answer is not the related resource's row but what the owner's presenter puts
 * there: a message's `actor` is its author's display facts, operator or client alike, on every message
 * the caller may read (server/resources/messages/present.ts), so a client author is no row of
 * `operators`. The cross-role probe checks no such relation's rows against the resource they name.
 */
const PRESENTED_RELATIONS = new Set(['messages.actor']);

function permitted(
  permissions: Set<string>,
  isOperator: boolean,
  resource: Resource,
  action: string,
): boolean {
  if (!resource.actions.includes(action)) return false;
  if (isOperator) return permissions.has(`tenant.${resource.name}.${action}`);
  return !!resource.portal?.actions.includes(action) && permissions.has(`portal.${resource.name}.${action}`);
}

describe.each(targets)('authorization matrix on $name', (target) => {
  let t: TestApp;
  const who = new Map<
    Caller,
    { headers: Record<string, string>; permissions: Set<string>; isOperator: boolean }
  >();

  beforeAll(async () => {
    t = await buildTestApp(target);
    await makeFinanceClient(t);
    for (const caller of CALLERS) {
      if (caller === 'anonymous') continue;
      const { token, body } = await t.login(caller);
      who.set(caller, {
        headers: { authorization: `Bearer ${token}` },
        permissions: new Set(body.user.permissions_names),
        isOperator: body.user.is_operator > 0,
      });
    }
  });
  afterAll(() => t?.close());

  it('the demo roles are what the spec says they are', () => {
    const admin = who.get('admin@example.com')!;
    const first = who.get('operator@example.com')!;
    const client = who.get('client@example.com')!;
    for (const name of registry()
      .permissionNames()
      .filter((n) => n.startsWith('tenant.'))) {
      expect(admin.permissions.has(name), name).toBe(true);
    }
    expect(first.permissions.has('tenant.tickets.index')).toBe(true);
    expect(first.permissions.has('tenant.operators.destroy')).toBe(false);
    expect([...client.permissions].every((p) => p.startsWith('portal.'))).toBe(true);
    expect(client.permissions.has('portal.tickets.index')).toBe(true);
    expect(client.permissions.has('portal.quotes.accept')).toBe(true);
  });

  for (const resource of registry().resources.values()) {
    it(`${resource.name}: every caller x every action`, async () => {
      const problems: string[] = [];
      for (const caller of CALLERS) {
        const me = who.get(caller);
        const headers = me?.headers ?? {};
        // A record the caller can see, if any: the first of its own list.
        let visibleId: number | undefined;
        if (me && permitted(me.permissions, me.isOperator, resource, 'index')) {
          const list = await t.app.inject({
            method: 'GET',
            url: `/api/${resource.name}?builder[0][paginate]=1`,
            headers,
          });
          visibleId = list.json().data?.[0]?.id;
        }
        for (const action of ACTIONS) {
          const exists = resource.actions.includes(action);
          const id = visibleId ?? MISSING_ID;
          const request = {
            index: { method: 'GET', url: `/api/${resource.name}` },
            show: { method: 'GET', url: `/api/${resource.name}/${id}` },
            store: { method: 'POST', url: `/api/${resource.name}`, payload: { __probe: true } },
            update: { method: 'PUT', url: `/api/${resource.name}/${id}`, payload: {} },
            destroy: { method: 'DELETE', url: `/api/${resource.name}/${MISSING_ID}` },
          }[action] as { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; payload?: object };
          const res = await t.app.inject({ ...request, headers });
          let expected: number;
          if (OWN_REPORT_RECORDS.has(resource.name)) {
            if (!me) expected = 401;
            else if (!me.permissions.has('tenant.reports.index')) expected = 403;
            else expected = action === 'index' ? 200 : action === 'store' ? 422 : 404;
          } else if (action === 'index' && OWN_OPERATOR_LISTS.has(resource.name))
            expected = !me ? 401 : me.isOperator ? 200 : 403;
          else if (!exists) expected = 404;
          else if (!me) expected = 401;
          else if (!permitted(me.permissions, me.isOperator, resource, action)) expected = 403;
          else if (action === 'index') expected = 200;
          else if (action === 'store')
            expected = 422; // permitted: reaches validation, which refuses the probe field
          else if (action === 'destroy') expected = 404;
          else expected = visibleId ? 200 : 404;
          if (res.statusCode !== expected)
            problems.push(
              `${caller} ${action}: ${res.statusCode} (expected ${expected}) ${res.body.slice(0, 120)}`,
            );
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it("a client asking for another client's records by id gets 404 on every portal resource", async () => {
    const problems: string[] = [];
    const client = who.get('client@example.com')!;
    const other = who.get('other@example.com')!;
    for (const resource of registry().resources.values()) {
      if (
        !resource.portal ||
        resource.portal.scope === 'tenant' ||
        !resource.portal.actions.includes('index')
      )
        continue;
      const theirs = await t.app.inject({
        method: 'GET',
        url: `/api/${resource.name}?builder[0][paginate]=100`,
        headers: other.headers,
      });
      const mine = await t.app.inject({
        method: 'GET',
        url: `/api/${resource.name}?builder[0][paginate]=100`,
        headers: client.headers,
      });
      const mineIds = new Set(mine.json().data.map((r: any) => r.id));
      for (const row of theirs
        .json()
        .data.filter((r: any) => !mineIds.has(r.id))
        .slice(0, 3)) {
        if (resource.portal.actions.includes('show')) {
          const show = await t.app.inject({
            method: 'GET',
            url: `/api/${resource.name}/${row.id}`,
            headers: client.headers,
          });
          if (show.statusCode !== 404) problems.push(`${resource.name}/${row.id}: show ${show.statusCode}`);
        }
        const byFilter = await t.app.inject({
          method: 'GET',
          url: `/api/${resource.name}?builder[0][where][0]=id&builder[0][where][1]==&builder[0][where][2]=${row.id}`,
          headers: client.headers,
        });
        if (byFilter.json().total !== 0) problems.push(`${resource.name}/${row.id}: found by where id`);
      }
    }
    expect(problems).toEqual([]);
  });

  /**
   * The cross-role probe (issue 39: "a cross-role probe suite shows no side door"): for every portal
   * resource, the rows the company admin lists that `narrow` does not are looked for by `narrow` along
   * every read path: the record, a filter on its id, a `whereHas` through every portal relation that leads
   * to the resource, and a `with` of those relations (anything it loads must be a row `narrow` may open);
   * and her list's total is the number of rows her pages hold, also filtered by company (the summary
   * count tables answer such totals for operators).
   */
  it.each(['lotte.smit@jansenbv.nl', FINANCE] as const)(
    '%s asking for what only her company admin sees gets 404 and finds nothing, on every portal resource and path',
    async (narrowCaller) => {
      const problems: string[] = [];
      const admin = who.get('client@example.com')!;
      const narrow = who.get(narrowCaller)!;
      const get = (url: string, headers: Record<string, string>) =>
        t.app.inject({ method: 'GET', url, headers });
      const portal = [...registry().resources.values()].filter((r) => r.portal?.actions.includes('index'));
      /** Every row a caller lists (page by page): the probe compares whole lists, not first pages. */
      const all = async (name: string, headers: Record<string, string>) => {
        const rows: Record<string, any>[] = [];
        for (let page = 1; page <= 50; page++) {
          const res = await get(`/api/${name}?builder[0][paginate]=100&page=${page}`, headers);
          rows.push(...res.json().data);
          if (res.json().data.length < 100) break;
        }
        return rows;
      };
      const jansen = (await get('/api/auth/me', narrow.headers)).json().user.companies[0].id as number;
      const whereId = (id: number) =>
        `[where][0]=id&builder[0][whereHas][1][0][where][1]==&builder[0][whereHas][1][0][where][2]=${id}`;
      let beyond = 0;
      let reachedByAdmin = 0;
      for (const resource of portal) {
        const mine = await all(resource.name, narrow.headers);
        const mineIds = new Set(mine.map((r) => r.id));
        // The list total is what her pages hold, also with a company filter.
        const total = (await get(`/api/${resource.name}?builder[0][paginate]=1`, narrow.headers)).json()
          .total;
        if (total !== mine.length) problems.push(`${resource.name}: total ${total}, listed ${mine.length}`);
        const scope = resource.portal!.scope;
        if (typeof scope === 'object' && 'company' in scope && mine.every((r) => scope.company in r)) {
          const field = scope.company;
          const filtered = (
            await get(
              `/api/${resource.name}?builder[0][where][0]=${field}&builder[0][where][1]==&builder[0][where][2]=${jansen}&builder[1][paginate]=1`,
              narrow.headers,
            )
          ).json().total;
          const expected = mine.filter((r) => r[field] === jansen).length;
          if (filtered !== expected)
            problems.push(`${resource.name}: total by ${field} ${filtered}, listed ${expected}`);
        }
        // The portal relations that lead to this resource, from any portal resource.
        const inbound = portal.flatMap((from) =>
          Object.values(from.relations)
            .filter((rel) => rel.kind !== 'morphTo' && rel.resource === resource.name)
            .map((rel) => ({ from: from.name, relation: rel.name })),
        );
        for (const row of (await all(resource.name, admin.headers))
          .filter((r) => !mineIds.has(r.id))
          .slice(0, 3)) {
          beyond += 1;
          if (resource.portal!.actions.includes('show')) {
            const show = await get(`/api/${resource.name}/${row.id}`, narrow.headers);
            if (show.statusCode !== 404) problems.push(`${resource.name}/${row.id}: show ${show.statusCode}`);
          }
          const byFilter = await get(
            `/api/${resource.name}?builder[0][where][0]=id&builder[0][where][1]==&builder[0][where][2]=${row.id}`,
            narrow.headers,
          );
          if (byFilter.json().total !== 0) problems.push(`${resource.name}/${row.id}: found by where id`);
          for (const { from, relation } of inbound) {
            const url = `/api/${from}?builder[0][whereHas][0]=${relation}&builder[0][whereHas][1][0]${whereId(row.id)}`;
            const asNarrow = await get(url, narrow.headers);
            if (asNarrow.statusCode !== 200 || asNarrow.json().total !== 0)
              problems.push(
                `${from} whereHas ${relation} ${row.id}: ${asNarrow.statusCode} ${asNarrow.body.slice(0, 80)}`,
              );
            if ((await get(url, admin.headers)).json().total > 0) reachedByAdmin += 1;
          }
        }
        // `with`: whatever her lists load through a relation to this resource is a row she may open.
        for (const { from, relation } of inbound) {
          if (PRESENTED_RELATIONS.has(`${from}.${relation}`)) continue;
          const res = await get(`/api/${from}?builder[0][paginate]=100&with[0]=${relation}`, narrow.headers);
          if (res.statusCode !== 200) {
            problems.push(`${from} with ${relation}: ${res.statusCode} ${res.body.slice(0, 80)}`);
            continue;
          }
          const loaded = (res.json().data as Record<string, any>[]).flatMap((r) =>
            [r[relation] ?? []].flat().map((x: { id: number }) => x.id),
          );
          for (const id of new Set(loaded.filter((i) => !mineIds.has(i)))) {
            const show = await get(`/api/${resource.name}/${id}`, narrow.headers);
            if (show.statusCode !== 200)
              problems.push(`${from} with ${relation}: loaded ${resource.name}/${id}`);
          }
        }
      }
      expect(problems).toEqual([]);
      // The probe probed: the admin sees rows she does not, and reaches some of them through a relation.
      expect(beyond).toBeGreaterThan(10);
      expect(reachedByAdmin).toBeGreaterThan(20);
    },
  );
});
