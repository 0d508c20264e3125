/**
 * A ticket's reference, T-<year>-<id>, keeps the whole id past ticket 99,999. It was padded with lpad,
 * which also cuts a longer id to its first five digits: every ticket from id 100,000 on got a reference
 * another ticket had (T-2026-10000 for ids 100,000 to 100,009 and 1,000,000 to 1,000,099), and its create
 * failed with "The reference has already been taken." (found by the bench at 1,000,000 tickets).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildTestApp, targets, type TestApp } from './harness.ts';

const ADMIN = 'admin@example.com';

describe.each(targets)('ticket references on $name', (target) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(() => t?.close());

  const create = async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: await t.as(ADMIN),
      payload: { description: 'Printer op de eerste verdieping' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; reference: string };
  };

  it('pads a short id to five digits and keeps a long one whole', async () => {
    const year = new Date().getFullYear();
    const small = await create();
    expect(small.id).toBeLessThan(10_000);
    expect(small.reference).toBe(`T-${year}-${String(small.id).padStart(5, '0')}`);

    // The next ids are 1,000,000 and 1,000,001: each its own reference.
    await sql`select setval(pg_get_serial_sequence('tickets', 'id'), 999999)`.execute(t.db);
    const first = await create();
    const second = await create();
    expect([first.id, second.id]).toEqual([1_000_000, 1_000_001]);
    expect(first.reference).toBe(`T-${year}-1000000`);
    expect(second.reference).toBe(`T-${year}-1000001`);
  });
});
