/**
 * GET /api/metrics: hidden without METRICS_TOKEN, guarded by it when set, and a valid Prometheus text
 * exposition that counts requests by route pattern, failed sign-ins, rate-limit refusals, the database
 * pool (PostgreSQL) and the queue depths of the instance it runs on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { configFromEnv } from '../../server/config.ts';
import { QUEUE_DEPTHS } from '../../server/metrics/queue-depths.ts';
import { queueJob } from '../../server/exports/jobs.ts';
import { enqueueMail } from '../../server/mail/enqueue.ts';

const TOKEN = 'metrics-test-token-0123456789abcdef';
const INSTANCE = 'metrics-test-1';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE_LINE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)$`);
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;

/**
 * Prometheus' text format (version 0.0.4), read strictly: every line a HELP, a TYPE, a sample or empty; every
 * sample of a family whose TYPE came first; histogram samples only as _bucket (with `le`), _sum, _count.
 */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const lines = text.split('\n');
  expect(lines.at(-1), 'the text ends with a line feed').toBe('');
  for (const line of lines.slice(0, -1)) {
    // The format ignores empty lines (prom-client puts one between families).
    if (line === '') continue;
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      expect(meta[2]).toMatch(new RegExp(`^${NAME}$`));
      if (meta[1] === 'TYPE') {
        expect(TYPES.has(meta[3]!), `type of ${meta[2]}: ${meta[3]}`).toBe(true);
        expect(types.has(meta[2]!), `one TYPE line for ${meta[2]}`).toBe(false);
        types.set(meta[2]!, meta[3]!);
      }
      continue;
    }
    const match = SAMPLE_LINE.exec(line);
    expect(match, `a sample line: ${line}`).not.toBeNull();
    const [, name, labelText = '', valueText] = match!;
    const labels: Record<string, string> = {};
    LABEL.lastIndex = 0;
    while (LABEL.lastIndex < labelText.length) {
      const label = LABEL.exec(labelText);
      expect(label, `labels of ${line}`).not.toBeNull();
      labels[label![1]!] = label![2]!;
    }
    // Prometheus reads values with Go's ParseFloat: NaN and ±Inf in any case (prom-client writes Nan).
    const value = /^nan$/i.test(valueText!) ? NaN : Number(valueText!.replace(/^([+-]?)inf$/i, '$1Infinity'));
    expect(Number.isNaN(value) && !/^nan$/i.test(valueText!), `value of ${line}`).toBe(false);
    const family = familyOf(name!, types);
    expect(family, `a TYPE line before ${name}`).toBeDefined();
    if (types.get(family!) === 'histogram') {
      expect(
        ['_bucket', '_sum', '_count'].some((s) => name === family + s),
        name,
      ).toBe(true);
      if (name!.endsWith('_bucket')) expect(labels.le, `le of ${line}`).toBeDefined();
    }
    samples.push({ name: name!, labels, value });
  }
  return { samples, types };
}

function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return types.get(base) === 'histogram' || types.get(base) === 'summary' ? base : undefined;
}

/** The value of the one sample of `name` whose labels include `labels`; undefined when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  expect(found.length, `at most one ${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0]?.value;
}

describe('METRICS_TOKEN', () => {
  it('is off when unset, and refuses a guessable token', () => {
    expect(configFromEnv({}).metricsToken).toBeUndefined();
    expect(configFromEnv({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(() => configFromEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16/);
    expect(configFromEnv({ METRICS_INSTANCE: ' web-2 ' }).metricsInstance).toBe('web-2');
    expect(configFromEnv({}).metricsInstance).toMatch(new RegExp(`:${process.pid}$`));
  });
});

describe.each(targets)('metrics on $name', (target) => {
  let off: TestApp;
  let t: TestApp;
  beforeAll(async () => {
    off = await buildTestApp(target);
    t = await buildTestApp(target, { config: { metricsToken: TOKEN, metricsInstance: INSTANCE } });
  });
  afterAll(async () => {
    await off?.close();
    await t?.close();
  });

  const scrape = async (app = t) => {
    const res = await app.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { res, ...parseExposition(res.body) };
  };

  it('answers 404 when METRICS_TOKEN is not set, token or not', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await off.app.inject({ method: 'GET', url: '/api/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found.' });
    }
  });

  it('answers 401 without the token or with another one', async () => {
    const wrong = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` },
      // A user's access token is no scrape token.
      await t.as('admin@example.com'),
    ];
    for (const headers of wrong) {
      const res = await t.app.inject({ method: 'GET', url: '/api/metrics', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.body).not.toContain('servicedesk_');
    }
  });

  it('answers with the token on any host (no tenant needed), in the text format, uncached', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: `Bearer ${TOKEN}`, host: 'no-such-tenant.example.com' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4; charset=utf-8$/);
    expect(res.headers['cache-control']).toBe('no-store');
    const { samples, types } = parseExposition(res.body);
    expect(types.get('servicedesk_http_requests_total')).toBe('counter');
    expect(types.get('servicedesk_http_request_duration_seconds')).toBe('histogram');
    expect(types.get('servicedesk_login_failures_total')).toBe('counter');
    expect(types.get('servicedesk_rate_limit_refusals_total')).toBe('counter');
    expect(types.get('servicedesk_db_statement_timeouts_total')).toBe('counter');
    expect(types.get('servicedesk_queue_depth')).toBe('gauge');
    // Node's own process metrics.
    expect(types.get('process_cpu_user_seconds_total')).toBe('counter');
    expect(types.get('nodejs_heap_size_used_bytes')).toBe('gauge');
    expect(types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    // Every series says which instance it comes from.
    expect(samples.length).toBeGreaterThan(20);
    for (const sample of samples) expect(sample.labels.instance_id, sample.name).toBe(INSTANCE);
  });

  it('counts a request by its route pattern and status, never by its address', async () => {
    const headers = await t.as('admin@example.com');
    const ticket = await t.db.selectFrom('tickets').select('id').orderBy('id').executeTakeFirstOrThrow();
    const labels = { method: 'GET', route: '/api/tickets/:id', status: '200' };
    const before = await scrape();
    const countBefore = valueOf(before.samples, 'servicedesk_http_requests_total', labels) ?? 0;
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}`, headers });
      expect(res.statusCode, res.body).toBe(200);
    }
    const missing = await t.app.inject({ method: 'GET', url: '/api/tickets/999999999', headers });
    expect(missing.statusCode).toBe(404);

    const { samples } = await scrape();
    expect(valueOf(samples, 'servicedesk_http_requests_total', labels)).toBe(countBefore + 2);
    expect(
      valueOf(samples, 'servicedesk_http_requests_total', { ...labels, status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'servicedesk_http_request_duration_seconds_count', labels)).toBe(countBefore + 2);
    expect(
      valueOf(samples, 'servicedesk_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }),
    ).toBe(countBefore + 2);
    expect(valueOf(samples, 'servicedesk_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    // No address with an id in it ever becomes a label.
    const routes = new Set(samples.map((s) => s.labels.route).filter((r) => r !== undefined));
    expect([...routes].filter((r) => /\d/.test(r!))).toEqual([]);
    expect(routes.has('/api/metrics')).toBe(true);
  });

  it('counts an address no route matches as unmatched, and an odd method as OTHER', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing/123' });
    expect(res.statusCode).toBe(404);
    const odd = await t.app.inject({ method: 'PROPFIND' as 'GET', url: '/api/tickets' });
    expect(odd.statusCode).toBe(404);
    const { samples } = await scrape();
    expect(samples.some((s) => s.labels.route === '/api/no-such-thing/123')).toBe(false);
    const methods = new Set(samples.map((s) => s.labels.method).filter((m) => m !== undefined));
    expect(methods.has('PROPFIND')).toBe(false);
    expect(
      valueOf(samples, 'servicedesk_http_requests_total', { method: 'OTHER', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
  });

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

describe.skipIf(!postgres)('two instances on one database', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await buildTestApp(postgres!, { config: { metricsToken: TOKEN, metricsInstance: 'web-1' } });
    b = await buildSecondInstance(a, { config: { metricsToken: TOKEN, metricsInstance: 'web-2' } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const scrapeOf = async (instance: TestApp) => {
    const res = await instance.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return parseExposition(res.body).samples;
  };

  it('each counts its own requests and names itself; both see the one queue', async () => {
    const labels = { method: 'GET', route: '/api/auth/me', status: '200' };
    const headers = await a.as('admin@example.com');
    for (let i = 0; i < 3; i++) {
      const res = await b.app.inject({ method: 'GET', url: '/api/auth/me', headers });
      expect(res.statusCode, res.body).toBe(200);
    }
    const [onA, onB] = [await scrapeOf(a), await scrapeOf(b)];
    expect(valueOf(onB, 'servicedesk_http_requests_total', labels)).toBe(3);
    expect(valueOf(onA, 'servicedesk_http_requests_total', labels)).toBeUndefined();
    expect(new Set(onA.map((sample) => sample.labels.instance_id))).toEqual(new Set(['web-1']));
    expect(new Set(onB.map((sample) => sample.labels.instance_id))).toEqual(new Set(['web-2']));
    // The queue is the database's: both instances count the same rows.
    expect(valueOf(onB, 'servicedesk_queue_depth', { queue: 'exports' })).toBe(
      valueOf(onA, 'servicedesk_queue_depth', { queue: 'exports' }),
    );
  });
});

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
