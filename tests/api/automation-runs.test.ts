/**
 * The rules' run log stays bounded (issue 37: "a log of its last runs"; server/automation/runs.ts) on
 * both engines: a rule keeps its last KEPT_PER_RULE runs, each new run dropping the oldest, without
 * touching another rule's log; the time rules' loop drops runs older than KEPT_DAYS.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { backOffice, type BackOffice } from './back-office.ts';
import { KEPT_DAYS, KEPT_PER_RULE } from '../../server/automation/runs.ts';
import { runTimeRules } from '../../server/automation/time-rules.ts';

describe.each(targets)('the automation run log on $name', (target) => {
  let t: TestApp;
  let b: BackOffice;

  const post = async (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, headers: b.admin, payload });
  const rule = async (name: string, marker: string) => {
    const res = await post('/api/automation-rules', {
      kind: 'trigger',
      name,
      event: 'ticket_created',
      conditions: [{ where: ['description', 'like', marker] }],
      actions: [{ type: 'note', body: '<p>Gezien</p>' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  };
  /** `count` old runs of the rule, as earlier events would have logged them. */
  const fill = async (ruleId: number, count: number, event = 'ticket_created') =>
    sql`insert into automation_runs (tenant_id, rule_id, event, outcome)
      select ${b.tenantId}, ${ruleId}, ${event}, 'applied' from generate_series(1, ${count})`.execute(t.db);
  const log = async (ruleId: number) =>
    (
      await sql<{ id: number; ticket_id: number | null }>`select id, ticket_id from automation_runs
        where rule_id = ${ruleId} order by id`.execute(t.db)
    ).rows.map((r) => ({ id: Number(r.id), ticket: r.ticket_id === null ? null : Number(r.ticket_id) }));

  beforeAll(async () => {
    t = await buildTestApp(target);
    b = await backOffice(t, []);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it(`keeps a rule's last ${KEPT_PER_RULE} runs, dropping the oldest, and leaves other rules' logs alone`, async () => {
    const busy = await rule('Druk', 'Druk-log');
    const quiet = await rule('Rustig', 'Rustig-log');
    await fill(busy, KEPT_PER_RULE);
    await fill(quiet, 3);
    const before = await log(busy);
    const ids: number[] = [];
    for (const n of [1, 2]) {
      const res = await post('/api/tickets', { description: `Druk-log ${n}`, company_id: b.ownCompanyId });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(Number(res.json().id));
    }
    const after = await log(busy);
    expect(after).toHaveLength(KEPT_PER_RULE);
    // The two oldest went; the two runs just made are the newest.
    expect(after[0]!.id).toBe(before[2]!.id);
    expect(after.slice(-2).map((r) => r.ticket)).toEqual(ids);
    expect(await log(quiet)).toHaveLength(3);
  });

  it(`drops runs older than ${KEPT_DAYS} days when the time rules' loop looks`, async () => {
    const aging = await rule('Oud', 'Oud-log');
    await fill(aging, 4);
    const rows = await log(aging);
    await sql`update automation_runs set created_at = now() - make_interval(days => ${KEPT_DAYS + 1})
      where id in (${sql.join(rows.slice(0, 3).map((r) => r.id))})`.execute(t.db);
    await runTimeRules(t.db);
    expect((await log(aging)).map((r) => r.id)).toEqual([rows[3]!.id]);
  });
});
