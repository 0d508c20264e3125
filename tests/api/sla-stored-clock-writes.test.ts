/**
 * The SLA clock kept on the ticket (issue 35, item 3), its write paths: each stores the full recompute's
 * answer in its own transaction, on a ticket's creation, answer, pause, closing and merge; an internal
 * note changes nothing. What time alone and changes of an SLA or a calendar change, measured by the
 * claimed background pass: tests/api/sla-stored-clock-pass.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import type { BackOffice } from './back-office.ts';
import { MIN, storedClockWorld, type StoredClockWorld } from './sla-stored-clock-world.ts';

describe.each(targets)('the SLA clock stored on the ticket on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;
  let slaId: number;
  let status: StoredClockWorld['status'];
  let api: StoredClockWorld['api'];
  let stored: StoredClockWorld['stored'];
  let expectRecomputed: StoredClockWorld['expectRecomputed'];
  let ticket: StoredClockWorld['ticket'];

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    ({ b, slaId, status, api, stored, expectRecomputed, ticket } = await storedClockWorld(t));
  });
  afterAll(() => t?.close());

  it('stores the clock when a ticket is created, answered and paused, each time equal to a recompute', async () => {
    const id = await ticket();
    const created = (await stored(id)).created_at.getTime();
    expect(await stored(id)).toMatchObject({
      applied_sla_id: slaId,
      applied_sla_source: 'ticket',
      first_response_state: 'running',
      first_response_due: new Date(created + 60 * MIN),
      resolution_state: 'running',
      resolution_due: new Date(created + 480 * MIN),
      next_response_state: null,
      sla_state: 'running',
      sla_due: new Date(created + 60 * MIN),
      // The first warning (75 % of 60 minutes) is the next change by time alone.
      sla_recheck_at: new Date(created + 45 * MIN),
    });
    await expectRecomputed(id);

    const reply = await api('POST', '/api/messages', {
      morphable_type: 'ticket',
      morphable_id: id,
      message: '<p>We kijken ernaar.</p>',
      visible_to_client: true,
    });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(await stored(id)).toMatchObject({
      first_response_state: 'met',
      first_response_due: null,
      sla_due: new Date(created + 480 * MIN),
    });
    await expectRecomputed(id);

    expect((await api('PUT', `/api/tickets/${id}`, { status_id: status.waiting })).statusCode).toBe(200);
    expect(await stored(id)).toMatchObject({
      sla_state: 'paused',
      resolution_state: 'paused',
      resolution_due: null,
      sla_due: null,
      sla_recheck_at: null,
    });
    await expectRecomputed(id);

    expect(
      (await t.app.inject({ method: 'POST', url: `/api/tickets/${id}/close`, headers: b.admin })).statusCode,
    ).toBe(200);
    expect(await stored(id)).toMatchObject({
      sla_state: 'met',
      resolution_state: 'met',
      sla_recheck_at: null,
    });
    await expectRecomputed(id);
  });

  it('an internal note changes nothing, and a ticket without any SLA stores none', async () => {
    const id = await ticket();
    const before = await stored(id);
    const note = await api('POST', '/api/messages', {
      morphable_type: 'ticket',
      morphable_id: id,
      message: '<p>Intern.</p>',
      visible_to_client: false,
    });
    expect(note.statusCode, note.body).toBe(201);
    expect(await stored(id)).toEqual(before);

    const bare = await ticket({ sla_id: null });
    expect(await stored(bare)).toMatchObject({ applied_sla_id: null, sla_state: null, sla_recheck_at: null });
    await expectRecomputed(bare);
  });

  it("a merge keeps each clock to its own history: the kept one does not take the other's reply", async () => {
    const kept = await ticket();
    const other = await ticket();
    const reply = await api('POST', '/api/messages', {
      morphable_type: 'ticket',
      morphable_id: other,
      message: '<p>Opgelost.</p>',
      visible_to_client: true,
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const merge = await api('POST', '/api/tickets/merge', { ids: [kept, other] });
    expect(merge.statusCode, merge.body).toBe(200);
    expect(await stored(kept)).toMatchObject({ first_response_state: 'running' });
    expect(await stored(other)).toMatchObject({ first_response_state: 'met' });
    await expectRecomputed(kept);
    await expectRecomputed(other);
  });
});
