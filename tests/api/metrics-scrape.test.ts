/**
 * GET /api/metrics: hidden without METRICS_TOKEN, guarded by it when set, and a valid Prometheus text
 * exposition that counts requests by route pattern, per instance it runs on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { configFromEnv } from '../../server/config.ts';
import { INSTANCE, TOKEN, parseExposition, scrapeMetrics, valueOf } from './metrics-exposition.ts';

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

  const scrape = () => scrapeMetrics(t);

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
