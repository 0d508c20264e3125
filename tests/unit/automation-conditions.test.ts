/**
 * Issue 37: a rule's conditions and a list filter agree on which tickets match. Random builders over
 * the tickets' fields (where with every operator, whereIn, whereNull, whereNotNull, whereHas through a
 * relation, a search), evaluated on the demo tickets through the rule evaluator
 * (server/automation/conditions.ts) and through GET /api/tickets with the same builder, on PGlite:
 * the same tickets, every time.
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
  let ticketIds: number[];
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
    const tickets = await t.db
      .selectFrom('tickets')
      .select(['id', 'status_id', 'priority_id', 'operator_id', 'ticket_group_id'])
      .where('tenant_id', '=', tenantId)
      .where('is_template', '=', false)
      .orderBy('id')
      .limit(40)
      .execute();
    ticketIds = tickets.map((r) => Number(r.id));
    for (const field of ['status_id', 'priority_id', 'operator_id', 'ticket_group_id'] as const)
      values[field] = [...new Set(tickets.map((r) => r[field]).filter((v): v is number => v !== null))];
  }, 120_000);
  afterAll(() => t?.close());

  const ids = (field: string) => fc.constantFrom(...(values[field]!.length ? values[field]! : [1]));
  const idField = fc.constantFrom('status_id', 'priority_id', 'operator_id', 'ticket_group_id');
  const item: fc.Arbitrary<object> = fc.oneof(
    idField.chain((field) =>
      fc
        .tuple(fc.constantFrom('=', '!=', '<', '<=', '>', '>='), ids(field))
        .map(([op, v]) => ({ where: [field, op, v] })),
    ),
    idField.chain((field) =>
      fc.uniqueArray(ids(field), { minLength: 1, maxLength: 3 }).map((vs) => ({ whereIn: [field, vs] })),
    ),
    fc
      .constantFrom('operator_id', 'ticket_group_id', 'deadline', 'priority_id')
      .map((f) => ({ whereNull: f })),
    fc
      .constantFrom('operator_id', 'ticket_group_id', 'deadline', 'priority_id')
      .map((f) => ({ whereNotNull: f })),
    fc.constantFrom('e', 'printer', 'mail', 'a').map((word) => ({ where: ['description', 'like', word] })),
    fc
      .constantFrom(1, 2, 3, 4)
      .map((type) => ({ whereHas: ['status', [{ where: ['internal_type', '=', type] }]] })),
    fc
      .constantFrom('Jansen', 'BV')
      .map((name) => ({ whereHas: ['company', [{ where: ['name', 'like', name] }]] })),
  );

  it('match the same tickets for random builders', async () => {
    // How many builders matched some of the tickets but not all: the property is not met by nothing.
    let telling = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 0, maxLength: 3 }), async (builder) => {
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
      }),
      { numRuns: 40, seed: 37 },
    );
    expect(telling).toBeGreaterThan(10);
  }, 120_000);
});
