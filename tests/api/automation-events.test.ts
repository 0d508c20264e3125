/**
 * Triggers on the events of the SLA clock and on long chains (issue 37) on both engines: an SLA breach
 * runs its sla_breach triggers, and a target entering its warning window its sla_warning triggers, once
 * however many instances measure the clock (a claim of the alert),
 * an operator's message runs the operator_message triggers, the bulk bar and macros run the
 * ticket_updated triggers of the fields they set, and a chain of distinct rules, each firing
 * the next, stops at the fixed depth with the rule past it logged as a loop.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { statusesByKind, withoutDemoSlas } from './sla-world.ts';
import { recheckSlaBatch } from '../../server/sla/recheck.ts';
import { MAX_DEPTH } from '../../server/automation/triggers.ts';

const MIN = 60_000;

describe.each(targets)('automation events on $name', (target) => {
  let t: TestApp;
  let second: TestApp | undefined;
  let b: BackOffice;
  let status: { open: number; closed: number; waiting: number };
  const priority: Record<string, number> = {};

  const post = async (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: b.admin, payload });
  const rule = async (body: object) => {
    const res = await post('/api/automation-rules', { kind: 'trigger', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  };
  const runs = async (ruleId: number, ticketId: number) =>
    (
      await sql<{ outcome: string; depth: number }>`select outcome, depth from automation_runs
        where rule_id = ${ruleId} and ticket_id = ${ticketId} order by id`.execute(t.db)
    ).rows.map((r) => ({ outcome: r.outcome, depth: Number(r.depth) }));
  const first = async (table: 'ticket_types' | 'ticket_groups' | 'slas') =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select('id')
          .where('tenant_id', '=', b.tenantId)
          .orderBy('id')
          .executeTakeFirstOrThrow()
      ).id,
    );

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { deadlineCheckMs: 0 } });
    if (target.url) second = await buildSecondInstance(t, { config: { deadlineCheckMs: 0 } });
    b = await backOffice(t, []);
    await withoutDemoSlas(t, b.tenantId);
    status = await statusesByKind(t, b.tenantId);
    for (const p of (
      await sql<{ id: number; label: string }>`select id, label from priorities
      where tenant_id = ${b.tenantId}`.execute(t.db)
    ).rows)
      priority[p.label] = Number(p.id);
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });
  beforeEach(async () => {
    if (t) await t.db.updateTable('automation_rules').set({ active: false }).execute();
  });

  /** A ticket on a new SLA whose first response is due in 60 minutes, at priority Laag. */
  const slaTicket = async (name: string, description: string) => {
    const sla = await post('/api/slas', { name, response_time: 60, resolution_time: 480 });
    expect(sla.statusCode, sla.body).toBe(201);
    const created = await post('/api/tickets', {
      description,
      status_id: status.open,
      sla_id: sla.json().id,
      priority_id: priority.Laag,
    });
    expect(created.statusCode, created.body).toBe(201);
    return Number(created.json().id);
  };
  /** The ticket made `minutes` earlier, measured by every instance at once, then once more. */
  const ageOnClock = async (id: number, minutes: number) => {
    const row = await t.db
      .selectFrom('tickets')
      .select('created_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('tickets')
      .set({ created_at: new Date(row.created_at.getTime() - minutes * MIN), sla_recheck_at: new Date(0) })
      .where('id', '=', id)
      .execute();
    await Promise.all([t, second ?? t, t].map((i) => recheckSlaBatch(i.db)));
    await t.db
      .updateTable('tickets')
      .set({ sla_recheck_at: new Date(0) })
      .where('id', '=', id)
      .execute();
    await recheckSlaBatch(t.db);
  };
  const priorityOf = async (id: number) =>
    (await t.db.selectFrom('tickets').select('priority_id').where('id', '=', id).executeTakeFirstOrThrow())
      .priority_id;

  it('runs an sla_breach trigger once, however many instances measure the breach', async () => {
    const ruleId = await rule({
      name: 'Bij overschrijding hoog',
      event: 'sla_breach',
      actions: [{ type: 'set', field: 'priority_id', value: priority.Hoog }],
    });
    const id = await slaTicket('Automatisch', 'Te laat');
    expect(await runs(ruleId, id)).toEqual([]);
    await ageOnClock(id, 70);
    expect(await runs(ruleId, id)).toEqual([{ outcome: 'applied', depth: 0 }]);
    expect(await priorityOf(id)).toBe(priority.Hoog);
  });

  it('runs an sla_warning trigger once when the clock enters the warning window, and no breach trigger', async () => {
    const warned = await rule({
      name: 'Bij waarschuwing hoog',
      event: 'sla_warning',
      actions: [{ type: 'set', field: 'priority_id', value: priority.Hoog }],
    });
    const breached = await rule({
      name: 'Bij overschrijding notitie',
      event: 'sla_breach',
      actions: [{ type: 'note', body: 'Te laat.' }],
    });
    const id = await slaTicket('Waarschuwing', 'Bijna te laat');
    // 50 of the first response's 60 minutes: past the 75 % warning (45), short of 90 % (54) and the breach.
    await ageOnClock(id, 50);
    expect(await runs(warned, id)).toEqual([{ outcome: 'applied', depth: 0 }]);
    expect(await runs(breached, id)).toEqual([]);
    expect(await priorityOf(id)).toBe(priority.Hoog);
  });

  it("runs an operator_message trigger on an operator's message", async () => {
    const ruleId = await rule({
      name: 'Operator antwoordt',
      event: 'operator_message',
      actions: [{ type: 'set', field: 'status_id', value: status.waiting }],
    });
    const created = await post('/api/tickets', { description: 'Vraag', status_id: status.open });
    const id = Number(created.json().id);
    const message = await post('/api/messages', {
      morphable_type: 'ticket',
      morphable_id: id,
      message: '<p>Kunt u dit proberen?</p>',
    });
    expect(message.statusCode, message.body).toBe(201);
    expect(await runs(ruleId, id)).toEqual([{ outcome: 'applied', depth: 0 }]);
    const ticket = await t.db
      .selectFrom('tickets')
      .select('status_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(ticket.status_id).toBe(status.waiting);
  });

  it('runs ticket_updated triggers for the bulk bar, the Close button, a merge and a macro, as for an edit', async () => {
    const watcher = await rule({
      name: 'Prioriteit gewijzigd',
      event: 'ticket_updated',
      event_fields: ['priority_id'],
      actions: [{ type: 'note', body: 'Prioriteit bekeken.' }],
    });
    const closing = await rule({
      name: 'Gesloten',
      event: 'ticket_updated',
      event_fields: ['status_id'],
      actions: [{ type: 'note', body: 'Afgesloten.' }],
    });
    const ids: number[] = [];
    for (const description of ['Bulk een', 'Bulk twee', 'Macro'])
      ids.push(Number((await post('/api/tickets', { description, priority_id: priority.Laag })).json().id));
    const [one, two, viaMacro] = ids as [number, number, number];

    const bulk = await post('/api/tickets/bulk', {
      action: 'update',
      ids: [one, two],
      changes: { priority_id: priority.Hoog },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    expect(await runs(watcher, one)).toEqual([{ outcome: 'applied', depth: 0 }]);
    expect(await runs(watcher, two)).toEqual([{ outcome: 'applied', depth: 0 }]);
    // The closing rule watches the status: a change of the priority alone does not wake it.
    expect(await runs(closing, one)).toEqual([]);

    const closed = await post('/api/tickets/bulk', { action: 'close', ids: [one] });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(await runs(closing, one)).toEqual([{ outcome: 'applied', depth: 0 }]);
    // The Close button, and a merge that closes the merged ticket.
    expect((await post(`/api/tickets/${two}/close`, {})).statusCode).toBe(200);
    expect(await runs(closing, two)).toEqual([{ outcome: 'applied', depth: 0 }]);
    const merged = Number((await post('/api/tickets', { description: 'Dubbel' })).json().id);
    const merge = await post('/api/tickets/merge', { ids: [viaMacro, merged] });
    expect(merge.statusCode, merge.body).toBe(200);
    expect(await runs(closing, merged)).toEqual([{ outcome: 'applied', depth: 0 }]);
    expect(await runs(closing, viaMacro)).toEqual([]);

    const macro = await post('/api/macros', {
      name: 'Hoog zetten',
      actions: [{ type: 'set', field: 'priority_id', value: priority.Hoog }],
    });
    expect(macro.statusCode, macro.body).toBe(201);
    const applied = await post(`/api/macros/${macro.json().id}/apply`, { ids: [viaMacro] });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(await runs(watcher, viaMacro)).toEqual([{ outcome: 'applied', depth: 0 }]);
  });

  it(`stops a chain of distinct rules at depth ${MAX_DEPTH}, logging the rule past it as a loop`, async () => {
    const admin = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@example.com')
      .executeTakeFirstOrThrow();
    const steps: [string, string, number][] = [
      ['', 'priority_id', priority.Hoog!],
      ['priority_id', 'operator_id', Number(admin.id)],
      ['operator_id', 'ticket_group_id', await first('ticket_groups')],
      ['ticket_group_id', 'status_id', status.waiting],
      ['status_id', 'sla_id', await first('slas')],
      ['sla_id', 'ticket_type_id', await first('ticket_types')],
    ];
    const ids: number[] = [];
    for (const [i, [watched, field, value]] of steps.entries())
      ids.push(
        await rule({
          name: `Stap ${i}`,
          position: i,
          event: watched ? 'ticket_updated' : 'ticket_created',
          event_fields: watched ? [watched] : [],
          actions: [{ type: 'set', field, value }],
        }),
      );
    const created = await post('/api/tickets', {
      description: 'Keten',
      status_id: status.open,
      priority_id: priority.Laag,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = Number(created.json().id);
    const outcomes = [];
    for (const ruleId of ids) outcomes.push(await runs(ruleId, id));
    expect(outcomes).toEqual([
      [{ outcome: 'applied', depth: 0 }],
      [{ outcome: 'applied', depth: 1 }],
      [{ outcome: 'applied', depth: 2 }],
      [{ outcome: 'applied', depth: 3 }],
      [{ outcome: 'applied', depth: 4 }],
      [{ outcome: 'skipped-loop', depth: 5 }],
    ]);
    const ticket = await t.db
      .selectFrom('tickets')
      .select('ticket_type_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(ticket.ticket_type_id).toBeNull();
  });
});
