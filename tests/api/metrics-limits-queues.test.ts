/**
 * GET /api/metrics counts failed sign-ins and rate-limit refusals, and reports the database pool
 * (PostgreSQL), statement timeouts and the queue depths.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { QUEUE_DEPTHS } from '../../server/metrics/queue-depths.ts';
import { queueJob } from '../../server/exports/jobs.ts';
import { enqueueMail } from '../../server/mail/enqueue.ts';
import { INSTANCE, TOKEN, parseExposition, scrapeMetrics, valueOf } from './metrics-exposition.ts';

describe.each(targets)('metrics on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target, { config: { metricsToken: TOKEN, metricsInstance: INSTANCE } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const scrape = () => scrapeMetrics(t);

  it('counts failed sign-ins and the refusals of the login limit', async () => {
    const failures = { method: 'password' };
    const before = await scrape();
    const failedBefore = valueOf(before.samples, 'servicedesk_login_failures_total', failures) ?? 0;
    const refusedBefore =
      valueOf(before.samples, 'servicedesk_rate_limit_refusals_total', { limit: 'login' }) ?? 0;

    const attempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'operator@example.com', password: 'not-the-password' },
      });
    const first = await attempt();
    expect(first.statusCode, first.body).toBe(422);
    const afterOne = await scrape();
    expect(valueOf(afterOne.samples, 'servicedesk_login_failures_total', failures)).toBe(failedBefore + 1);

    // Five failures from one address lock it out of the account: the sixth is refused with 429.
    for (let i = 1; i < 5; i++) expect((await attempt()).statusCode).toBe(422);
    const refused = await attempt();
    expect(refused.statusCode, refused.body).toBe(429);
    const after = await scrape();
    expect(valueOf(after.samples, 'servicedesk_login_failures_total', failures)).toBe(failedBefore + 5);
    expect(valueOf(after.samples, 'servicedesk_rate_limit_refusals_total', { limit: 'login' })).toBe(
      refusedBefore + 1,
    );
    // A good sign-in counts no failure.
    await t.login('client@example.com');
    const good = await scrape();
    expect(valueOf(good.samples, 'servicedesk_login_failures_total', failures)).toBe(failedBefore + 5);
  });

  it('counts the refusals of the password-reset limit', async () => {
    const limit = { limit: 'password_reset' };
    const before = valueOf((await scrape()).samples, 'servicedesk_rate_limit_refusals_total', limit) ?? 0;
    const forgot = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/password/forgot',
        payload: { email: 'nobody-metrics@example.com' },
      });
    // Five requests from one address for one account are served; the sixth is refused.
    for (let i = 0; i < 5; i++) expect((await forgot()).statusCode).toBe(200);
    const refused = await forgot();
    expect(refused.statusCode, refused.body).toBe(429);
    const after = valueOf((await scrape()).samples, 'servicedesk_rate_limit_refusals_total', limit);
    expect(after).toBe(before + 1);
  });

  it('reports the export queue depth at scrape time', async () => {
    const { samples } = await scrape();
    const depth = valueOf(samples, 'servicedesk_queue_depth', { queue: 'exports' });
    expect(depth).toBeGreaterThanOrEqual(0);
    expect(Number.isInteger(depth)).toBe(true);

    // The count itself, on jobs no worker can claim yet: queued in a transaction that is rolled back.
    const exportsQueue = QUEUE_DEPTHS.find((q) => q.queue === 'exports')!;
    const admin = await t.db
      .selectFrom('users')
      .select(['id', 'tenant_id'])
      .where('email', '=', 'admin@example.com')
      .executeTakeFirstOrThrow();
    const rollback = new Error('rollback');
    await expect(
      t.db.transaction().execute(async (trx) => {
        const before = await exportsQueue.depth(trx);
        for (let i = 0; i < 2; i++) {
          await queueJob(trx, {
            tenantId: Number(admin.tenant_id),
            userId: Number(admin.id),
            model: 'tickets',
            filter: [],
            columns: [],
            locale: 'en',
            origin: 'http://localhost',
          });
        }
        expect(await exportsQueue.depth(trx)).toBe(before + 2);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
  });

  it('reports the mail outbox depth at scrape time', async () => {
    const { samples } = await scrape();
    expect(Number.isInteger(valueOf(samples, 'servicedesk_queue_depth', { queue: 'mail_outbox' }))).toBe(
      true,
    );
    // Mail queued in a transaction that is rolled back: counted inside it, never sent.
    const outbox = QUEUE_DEPTHS.find((q) => q.queue === 'mail_outbox')!;
    const rollback = new Error('rollback');
    await expect(
      t.db.transaction().execute(async (trx) => {
        const before = await outbox.depth(trx);
        const tenant = await trx.selectFrom('tenants').select('id').orderBy('id').executeTakeFirstOrThrow();
        await enqueueMail(
          trx,
          { to: 'metrics@example.com', subject: 'Diepte', text: 'Nooit verstuurd' },
          { tenantId: Number(tenant.id) },
        );
        expect(await outbox.depth(trx)).toBe(before + 1);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
  });

  it.runIf(target.name === 'postgres')('reports the database pool on PostgreSQL', async () => {
    const { samples, types } = await scrape();
    for (const name of ['connections', 'idle', 'waiting', 'max'])
      expect(types.get(`servicedesk_db_pool_${name}`), name).toBe('gauge');
    // The harness opens a pool of 4; the scrape itself has used at least one connection.
    expect(valueOf(samples, 'servicedesk_db_pool_max')).toBe(4);
    const open = valueOf(samples, 'servicedesk_db_pool_connections')!;
    expect(open).toBeGreaterThanOrEqual(1);
    expect(open).toBeLessThanOrEqual(4);
    expect(valueOf(samples, 'servicedesk_db_pool_idle')).toBeLessThanOrEqual(open);
    expect(valueOf(samples, 'servicedesk_db_pool_waiting')).toBe(0);
  });

  it.runIf(target.name === 'pglite')('reports no pool on PGlite (one embedded connection)', async () => {
    const { types } = await scrape();
    expect([...types.keys()].filter((name) => name.startsWith('servicedesk_db_pool_'))).toEqual([]);
  });
});

const postgres = targets.find((target) => target.url);

describe.skipIf(!postgres)('statement timeouts in the metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Without the demo seed: the tenant look-up alone is the statement that gets stopped.
    t = await buildTestApp(postgres!, {
      seed: 'none',
      statementTimeoutMs: 200,
      config: { metricsToken: TOKEN, metricsInstance: INSTANCE },
    });
  });
  afterAll(() => t?.close());

  it('counts a statement stopped at STATEMENT_TIMEOUT_MS', async () => {
    const timeouts = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return valueOf(parseExposition(res.body).samples, 'servicedesk_db_statement_timeouts_total');
    };
    expect(await timeouts()).toBe(0);
    // Another transaction holds the tenants table: the look-up waits for it until the timeout stops it.
    const blocked = await t.db.transaction().execute(async (trx) => {
      await sql`lock table tenants in access exclusive mode`.execute(trx);
      return t.app.inject({ method: 'GET', url: '/api/system/status' });
    });
    expect(blocked.statusCode, blocked.body).toBe(503);
    expect(await timeouts()).toBe(1);
  });
});
