/**
 * Issue 37: a rule's conditions and a list filter agree on which tickets match. Each run makes a few
 * random tickets (random status, priority, operator, ticket group, deadline, company and description,
 * each possibly empty where the field may be) and a random builder over the tickets' fields (where with
 * every operator, whereIn, whereNull, whereNotNull, whereHas through a relation, a search), and
 * evaluates it on those tickets through the rule evaluator (server/automation/conditions.ts) and
 * through GET /api/tickets with the same builder, on PGlite: the same tickets, every time.
 */
import fc from 'fast-check';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../api/harness.ts';
import { matchingRules } from '../../server/automation/conditions.ts';
import { systemContext } from '../../server/auth/context.ts';
import { registry } from '../../server/schema/registry.ts';

describe('rule conditions and list filters', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let tenantId: number;
  /** The tenant's records a ticket field may point at, by field. */
  const values: Record<string, number[]> = {};

  beforeAll(async () => {
    t = await buildTestApp({ name: 'pglite' });
    admin = await t.as('admin@example.com');
    const tenant = await t.db
      .selectFrom('tenants')
      .select('id')
      .where('slug', '=', 'acme')
      .executeTakeFirstOrThrow();
    tenantId = Number(tenant.id);
    const ids = async (table: 'ticket_statuses' | 'priorities' | 'ticket_groups' | 'companies') =>
      (
        await t.db.selectFrom(table).select('id').where('tenant_id', '=', tenantId).orderBy('id').execute()
      ).map((r) => Number(r.id));
    values.status_id = await ids('ticket_statuses');
    values.priority_id = await ids('priorities');
    values.ticket_group_id = await ids('ticket_groups');
    values.company_id = await ids('companies');
    values.operator_id = (
      await t.db
        .selectFrom('users')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('is_operator', '>', 0)
        .where('archived_at', 'is', null)
        .orderBy('id')
        .execute()
    ).map((r) => Number(r.id));
  }, 120_000);
  afterAll(() => t?.close());

  const ids = (field: string) => fc.constantFrom(...values[field]!);
  const orNone = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 3 });
  const DEADLINES = ['2026-01-15T09:00:00.000Z', '2026-06-30T17:00:00.000Z', '2027-03-01T08:30:00.000Z'];
  const WORDS = ['printer', 'mail', 'kapot', 'traag', 'wachtwoord', 'VPN', 'scherm'];
  /** A ticket as an operator could create it, every field the conditions use random. */
  const ticket = () =>
    fc.record({
      status_id: ids('status_id'),
      priority_id: ids('priority_id'),
      operator_id: orNone(ids('operator_id')),
      ticket_group_id: orNone(ids('ticket_group_id')),
      deadline: orNone(fc.constantFrom(...DEADLINES)),
      company_id: ids('company_id'),
      description: fc
        .uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 })
        .map((w) => w.join(' ')),
    });
  const idField = fc.constantFrom('status_id', 'priority_id', 'operator_id', 'ticket_group_id');
  const item = (): fc.Arbitrary<object> =>
    fc.oneof(
      idField.chain((field) =>
        fc
          .tuple(fc.constantFrom('=', '!=', '<', '<=', '>', '>='), ids(field))
          .map(([op, v]) => ({ where: [field, op, v] })),
      ),
      idField.chain((field) =>
        fc.uniqueArray(ids(field), { minLength: 1, maxLength: 3 }).map((vs) => ({ whereIn: [field, vs] })),
      ),
      fc
        .tuple(fc.constantFrom('<', '>='), fc.constantFrom(...DEADLINES))
        .map(([op, v]) => ({ where: ['deadline', op, v] })),
      fc
        .constantFrom('operator_id', 'ticket_group_id', 'deadline', 'priority_id')
        .map((f) => ({ whereNull: f })),
      fc
        .constantFrom('operator_id', 'ticket_group_id', 'deadline', 'priority_id')
        .map((f) => ({ whereNotNull: f })),
      fc.constantFrom(...WORDS, 'a').map((word) => ({ where: ['description', 'like', word] })),
      fc
        .constantFrom(1, 2, 3, 4)
        .map((type) => ({ whereHas: ['status', [{ where: ['internal_type', '=', type] }]] })),
      fc
        .constantFrom('Jansen', 'BV')
        .map((name) => ({ whereHas: ['company', [{ where: ['name', 'like', name] }]] })),
    );

  it('match the same random tickets for random builders', async () => {
    // How many builders matched some of the run's tickets but not all: the property is not met by nothing.
    let telling = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(ticket(), { minLength: 4, maxLength: 8 }),
        fc.array(item(), { minLength: 0, maxLength: 3 }),
        async (made, builder) => {
          const ticketIds: number[] = [];
          for (const fields of made) {
            const res = await t.app.inject({
              method: 'POST',
              url: '/api/tickets',
              headers: admin,
              payload: fields,
            });
            expect(res.statusCode, res.body).toBe(201);
            ticketIds.push(Number(res.json().id));
          }
          // The tickets hold the random values (a create that set its own would test less than it says).
          const stored = await t.db
            .selectFrom('tickets')
            .select(['status_id', 'priority_id', 'operator_id', 'ticket_group_id', 'company_id'])
            .where('id', 'in', ticketIds)
            .orderBy('id')
            .execute();
          expect(stored.map((r) => Object.values(r).map((v) => (v === null ? null : Number(v))))).toEqual(
            made.map((m) => [m.status_id, m.priority_id, m.operator_id, m.ticket_group_id, m.company_id]),
          );
          const auth = systemContext(tenantId);
          const byRule: number[] = [];
          for (const id of ticketIds) {
            const { matching, broken } = await matchingRules(t.db, registry(), auth, id, [
              { id: 1, conditions: builder },
            ]);
            expect(broken.size).toBe(0);
            if (matching.has(1)) byRule.push(id);
          }
          const query = qs.stringify(
            { builder: [...builder, { whereIn: ['id', ticketIds] }, { paginate: 100 }] },
            { encodeValuesOnly: true },
          );
          const res = await t.app.inject({ url: `/api/tickets?${query}`, headers: admin });
          expect(res.statusCode, res.body).toBe(200);
          const byList = (res.json().data as { id: number }[]).map((r) => Number(r.id)).sort((a, b) => a - b);
          expect(byRule).toEqual(byList);
          if (byRule.length > 0 && byRule.length < ticketIds.length) telling++;
        },
      ),
      { numRuns: 60, seed: 37 },
    );
    expect(telling).toBeGreaterThanOrEqual(15);
  }, 240_000);
});
