/**
 * The harness's second instance (buildSecondInstance): two apps on one PostgreSQL database, as two
 * processes behind a balancer. The scale-out tests build on it, so it must really share the database
 * and nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';

const postgres = targets.find((t) => t.name === 'postgres');

// Skipped, not absent, without TEST_DATABASE_URL: a file with no suite at all fails the quick run.
describe.skipIf(!postgres)('a second instance on postgres', () => {
  const target = postgres!;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await buildTestApp(target);
    b = await buildSecondInstance(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('reads what the first wrote and accepts its tokens, with a DATA_DIR of its own', async () => {
    const headers = await a.as('admin@example.com');
    const description = `Gedeeld ${Date.now()}`;
    const created = await a.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers,
      payload: { description },
    });
    expect(created.statusCode, created.body).toBe(201);
    const read = await b.app.inject({ method: 'GET', url: `/api/tickets/${created.json().id}`, headers });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().description).toBe(description);
    expect(b.config.dataDir).not.toBe(a.config.dataDir);
  });
});
