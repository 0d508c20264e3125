/**
 * Health for a load balancer (issue 15): `/api/health/live` answers without the database,
 * `/api/health/ready` says 503 and which check failed when the database does not answer or its
 * migrations are not done. (Not ready while shutting down: instances.test.ts, with a real SIGTERM.)
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { configFromEnv } from '../../server/config.ts';
import { openDatabase, type DatabaseConnection } from '../../server/db/database.ts';
import { registry } from '../../server/schema/registry.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { freePort } from './processes.ts';

const LAST_MIGRATION = '0017_mail_outbox_body_expiry';

describe.each(targets)('health on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('is not ready while a migration is missing, and ready once it is done', async () => {
    // Before the first readiness question: once seen done, migrations are not asked again.
    const removed = await sql`delete from kysely_migration where name = ${LAST_MIGRATION}
      returning name, timestamp`.execute(t.db);
    expect(removed.rows).toHaveLength(1);
    const pending = await get('/api/health/ready');
    expect(pending.statusCode).toBe(503);
    expect(pending.headers['retry-after']).toMatch(/^\d+$/);
    expect(pending.json()).toEqual({
      status: 'unavailable',
      database: 'ok',
      migrations: 'pending',
      shutting_down: false,
      failed: ['migrations'],
    });
    const [row] = removed.rows as { name: string; timestamp: string }[];
    await sql`insert into kysely_migration (name, timestamp) values (${row!.name}, ${row!.timestamp})`.execute(
      t.db,
    );
    const ready = await get('/api/health/ready');
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      database: 'ok',
      migrations: 'done',
      shutting_down: false,
      failed: [],
    });
  });

  it('answers live without asking anything, and keeps /api/health as it was', async () => {
    const live = await get('/api/health/live');
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    expect((await get('/api/health')).json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('lists both in the OpenAPI document', async () => {
    const doc = (await get('/api/docs/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/health/live', '/health/ready']));
  });
});

describe('health with a database that does not answer', () => {
  let database: DatabaseConnection;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    // A port nothing listens on: every connection is refused at once.
    database = await openDatabase({ url: `postgres://postgres@127.0.0.1:${await freePort()}/none` });
    app = await buildApp({
      db: database.db,
      registry: registry(),
      config: { ...configFromEnv({}), jwtSecret: 'unused' },
      exports: { enabled: false },
      fileSweepMs: 0,
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('is live but not ready, and says the database is why', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toMatch(/^\d+$/);
    expect(ready.json()).toEqual({
      status: 'unavailable',
      database: 'unreachable',
      migrations: 'unknown',
      shutting_down: false,
      failed: ['database', 'migrations'],
    });
  });
});
