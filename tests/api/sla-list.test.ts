/**
 * Issue 35, item 4: the stored SLA clock in the back office's ticket list. Operators read the columns,
 * filter on the SLA state and the dues (the list's 'breached' and 'breaches within' views send exactly
 * these builder items, their bounds computed by the app) and sort by the dues; nobody writes them; a
 * portal client neither reads, filters, sorts nor loads them (x-portal.fields leaves them out). The
 * tickets are given their stored clock directly, as the server's write paths would have left it.
 */
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, firstClientTicketId, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';

const HOUR = 3600 * 1000;
const PREFIX = 'SLAL-';

type State = 'running' | 'warning' | 'paused' | 'breached' | 'met';

describe.each(targets)('the SLA columns of the ticket list on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let openStatus: number;
  let slaId: number;
  const now = Date.now();
  const at = (ms: number | null) => (ms === null ? null : new Date(now + ms));

  const list = async (builder: object[], headers = b.admin, extra: object = {}) =>
    t.app.inject({
      method: 'GET',
      url: `/api/tickets?${qs.stringify({ builder: [{ paginate: 100 }, ...builder], ...extra })}`,
      headers,
    });
  const references = async (builder: object[]) => {
    const res = await list([{ where: ['reference', 'like', PREFIX] }, ...builder]);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as { reference: string }[]).map((r) => r.reference);
  };

  async function ticket(
    name: string,
    clock: { state: State | null; first?: number | null; resolution?: number | null; due?: number | null },
  ) {
    await t.db
      .insertInto('tickets')
      .values({
        tenant_id: b.tenantId,
        reference: `${PREFIX}${name}`,
        description: `SLA list ${name}`,
        status_id: openStatus,
        company_id: b.ownCompanyId,
        applied_sla_id: clock.state === null ? null : slaId,
        applied_sla_source: clock.state === null ? null : 'tenant',
        sla_state: clock.state,
        sla_due: at(clock.due ?? null),
        first_response_state: clock.state,
        first_response_due: at(clock.first ?? null),
        resolution_state: clock.state,
        resolution_due: at(clock.resolution ?? null),
        // Not measured again by the background pass: the test's clock stays as written.
        sla_recheck_at: null,
      })
      .execute();
  }

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, []);
    openStatus = Number(
      (
        await t.db
          .selectFrom('ticket_statuses')
          .select('id')
          .where('tenant_id', '=', b.tenantId)
          .where('internal_type', '=', 1)
          .executeTakeFirstOrThrow()
      ).id,
    );
    slaId = Number(
      (
        await t.db
          .insertInto('slas')
          .values({ tenant_id: b.tenantId, name: 'SLA list test' })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    await ticket('a-breached', { state: 'breached', first: -HOUR, resolution: -HOUR / 2 });
    await ticket('b-soon', { state: 'running', first: HOUR / 2, resolution: 3 * HOUR, due: HOUR / 2 });
    await ticket('c-warning', { state: 'warning', first: 3 * HOUR, resolution: 2 * HOUR, due: 2 * HOUR });
    await ticket('d-paused', { state: 'paused' });
    await ticket('e-met', { state: 'met' });
    await ticket('f-none', { state: null });
  });
  afterAll(() => t?.close());

  it('operators read the stored clock, and the applied SLA as a relation', async () => {
    const res = await list([{ where: ['reference', '=', `${PREFIX}b-soon`] }], b.admin, {
      with: ['appliedSla'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = res.json().data[0];
    expect(row).toMatchObject({
      applied_sla_id: slaId,
      applied_sla_source: 'tenant',
      sla_state: 'running',
      first_response_state: 'running',
      resolution_state: 'running',
      appliedSla: { id: slaId, name: 'SLA list test' },
    });
    expect(new Date(row.sla_due).getTime()).toBe(now + HOUR / 2);
    expect(new Date(row.resolution_due).getTime()).toBe(now + 3 * HOUR);
    // Internal: when the background pass looks again is never answered.
    expect(row).not.toHaveProperty('sla_recheck_at');
  });

  it('filter on the SLA state and on a due bound, as the breached and breaches-within views send', async () => {
    expect(await references([{ whereIn: ['sla_state', ['breached']] }])).toEqual([`${PREFIX}a-breached`]);
    expect(
      await references([{ whereIn: ['sla_state', ['running', 'warning']] }, { orderBy: ['id', 'asc'] }]),
    ).toEqual([`${PREFIX}b-soon`, `${PREFIX}c-warning`]);
    expect(await references([{ whereNull: 'sla_state' }])).toEqual([`${PREFIX}f-none`]);
    const within = (ms: number) => [{ where: ['sla_due', '<=', new Date(now + ms).toISOString()] }];
    expect(await references(within(HOUR))).toEqual([`${PREFIX}b-soon`]);
    expect(await references([...within(4 * HOUR), { orderBy: ['id', 'asc'] }])).toEqual([
      `${PREFIX}b-soon`,
      `${PREFIX}c-warning`,
    ]);
    const between = [new Date(now).toISOString(), new Date(now + HOUR).toISOString()];
    expect(await references([{ whereBetween: ['resolution_due', between] }])).toEqual([]);
    expect(await references([{ whereIn: ['first_response_state', ['met']] }])).toEqual([`${PREFIX}e-met`]);
    expect(await references([{ whereIn: ['applied_sla_source', ['tenant']] }])).toHaveLength(5);
  });

  it('sort by first response due and resolution due', async () => {
    const dated = (refs: string[]) =>
      refs.filter((r) => ['a-breached', 'b-soon', 'c-warning'].some((n) => r.endsWith(n)));
    expect(dated(await references([{ orderBy: ['resolution_due', 'asc'] }]))).toEqual([
      `${PREFIX}a-breached`,
      `${PREFIX}c-warning`,
      `${PREFIX}b-soon`,
    ]);
    expect(dated(await references([{ orderBy: ['first_response_due', 'desc'] }]))).toEqual([
      `${PREFIX}c-warning`,
      `${PREFIX}b-soon`,
      `${PREFIX}a-breached`,
    ]);
    expect(dated(await references([{ orderBy: ['sla_due', 'asc'] }])).slice(0, 2)).toEqual([
      `${PREFIX}b-soon`,
      `${PREFIX}c-warning`,
    ]);
  });

  it('refuse an unknown or internal name, a sort without an index, and any write of the clock', async () => {
    for (const builder of [
      [{ where: ['sla_recheck_at', '<=', new Date().toISOString()] }],
      [{ where: ['sla_breaches_within', '=', '1h'] }],
      [{ whereIn: ['sla_soon', [1]] }],
      [{ orderBy: ['sla_recheck_at', 'asc'] }],
      [{ orderBy: ['next_response_due', 'asc'] }],
      [{ where: ['next_response_due', '<=', new Date().toISOString()] }],
    ]) {
      const res = await list(builder);
      expect(res.statusCode, `${JSON.stringify(builder)}: ${res.body}`).toBe(422);
    }
    const id = await firstClientTicketId(t.db);
    for (const body of [{ sla_state: 'met' }, { resolution_due: null }, { applied_sla_id: slaId }]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/tickets/${id}`,
        headers: b.admin,
        payload: body,
      });
      expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(422);
    }
  });

  it('a portal client cannot read, filter, sort or load them', async () => {
    const res = await list([], b.client);
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      for (const name of ['sla_state', 'sla_due', 'first_response_due', 'resolution_due', 'applied_sla_id'])
        expect(row, name).not.toHaveProperty(name);
    const shown = await t.app.inject({
      method: 'GET',
      url: `/api/tickets/${await firstClientTicketId(t.db)}`,
      headers: b.client,
    });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).not.toHaveProperty('resolution_state');
    for (const [builder, extra] of [
      [[{ whereIn: ['sla_state', ['breached']] }], {}],
      [[{ where: ['sla_due', '<=', new Date(now + HOUR).toISOString()] }], {}],
      [[{ whereNotNull: 'resolution_due' }], {}],
      [[{ orderBy: ['resolution_due', 'asc'] }], {}],
      [[{ orderBy: ['first_response_due', 'asc'] }], {}],
      [[], { with: ['appliedSla'] }],
    ] as [object[], object][]) {
      const refused = await list(builder, b.client, extra);
      expect(refused.statusCode, `${JSON.stringify(builder)} ${JSON.stringify(extra)}: ${refused.body}`).toBe(
        422,
      );
    }
  });
});
