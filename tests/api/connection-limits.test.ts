/**
 * Issue 31 item 8, in a real server process started with short limits: slow clients (slowloris: headers
 * one byte at a time, headers never finished, an idle keep-alive connection, a body that stops) are cut
 * off by the server; an event stream, whose heartbeats are traffic, is not. The same process starts with
 * MAIL_FETCH_MS=0, documented as "no fetching", which used to stop it at start.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { configFromEnv } from '../../server/config.ts';
import { freePort, startServer, waitFor, type ServerProcess } from './processes.ts';
import { seededDataFolder } from './seed-copy.ts';
import { rawConnection } from './raw-socket.ts';

const HEADERS_MS = 1000;
const KEEP_ALIVE_MS = 1000;
const IDLE_MS = 2000;
const HEARTBEAT_MS = 400;

describe('slow clients and MAIL_FETCH_MS=0 in a server process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sd-connection-limits-'));
  let server: ServerProcess;
  let port: number;

  beforeAll(async () => {
    seededDataFolder(inject('seeds'), dataDir);
    port = await freePort();
    server = startServer({
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED: 'demo',
      MAIL_FETCH_MS: '0',
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS),
      // Far longer than any wait here: what closes a connection below is one of the other limits.
      HTTP_REQUEST_TIMEOUT_MS: '600000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
      HTTP_IDLE_TIMEOUT_MS: String(IDLE_MS),
      LIVE_HEARTBEAT_MS: String(HEARTBEAT_MS),
    });
    await server.ready;
  }, 120_000);

  afterAll(async () => {
    if (server && !server.hasExited()) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts with MAIL_FETCH_MS=0 and serves', async () => {
    expect(configFromEnv({ MAIL_FETCH_MS: '0' }).mailFetchMs).toBe(0);
    expect((await fetch(`http://127.0.0.1:${port}/api/health/ready`)).status).toBe(200);
    expect(server.output()).not.toContain('MAIL_FETCH_MS');
  });

  it('closes 330 connections whose headers never end with 408, serving others meanwhile', async () => {
    const slow = await Promise.all(Array.from({ length: 300 }, () => rawConnection(port)));
    // Nothing at all, one byte, or a request line and a header but never the blank line that ends them.
    const beginnings = ['', 'G', 'GET /api/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n'];
    slow.forEach((c, i) => c.socket.write(beginnings[i % beginnings.length]!));
    // And a tenth send a byte of a header every 100 ms: busy, but their headers never end either.
    const dripping = await Promise.all(Array.from({ length: 30 }, () => rawConnection(port)));
    dripping.forEach((c) => c.socket.write('GET /api/health/live HTTP/1.1\r\nX-Slow: '));
    const drip = setInterval(() => dripping.forEach((c) => !c.closed() && c.socket.write('a')), 100);
    const all = [...slow, ...dripping];
    try {
      expect((await fetch(`http://127.0.0.1:${port}/api/health/live`)).status).toBe(200);
      await waitFor(
        'the server to close every slow connection',
        () => all.every((c) => c.closed()),
        30_000,
        50,
      );
    } finally {
      clearInterval(drip);
    }
    // Closed by the header timeout, which answers 408 (the idle timeout would close without a word).
    for (const c of all) expect(c.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  }, 60_000);

  it('closes a keep-alive connection left idle after its answer', async () => {
    const c = await rawConnection(port);
    c.socket.write('GET /api/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await waitFor('the answer', () => /\r\n\r\n\{.*\}$/s.test(c.received()), 10_000, 20);
    expect(c.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(c.received()).toMatch(/\r\nkeep-alive: timeout=1\r\n/i);
    await waitFor('the server to close the idle connection', () => c.closed(), 20_000, 50);
    expect(c.received()).not.toContain('408');
  }, 30_000);

  it('cuts a request whose body stops coming', async () => {
    const c = await rawConnection(port);
    c.socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{"username":',
    );
    await waitFor('the server to cut the stalled request', () => c.closed(), 20_000, 50);
    // Neither an answer to half a body nor the header timeout's 408: the idle timeout destroys the socket.
    expect(c.received()).toBe('');
  }, 30_000);

  it('keeps an event stream open past the idle timeout: its heartbeats are traffic', async () => {
    const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'operator@example.com', password: 'demo' }),
    });
    const { access_token: token } = (await login.json()) as { access_token: string };
    const c = await rawConnection(port);
    c.socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    await waitFor('the stream to be ready', () => c.received().includes('event: ready'), 10_000, 20);
    // More heartbeats than fit in one idle timeout (and then some), and the stream is still open.
    const needed = Math.ceil(IDLE_MS / HEARTBEAT_MS) + 2;
    await waitFor(
      `${needed} heartbeats`,
      () => c.closed() || c.received().split(': keepalive').length - 1 >= needed,
      30_000,
      50,
    );
    expect(c.closed()).toBe(false);
    expect(c.received()).toMatch(/^HTTP\/1\.1 200/);
    c.socket.destroy();
  }, 60_000);

  it('refuses limits that contradict each other at start, naming the settings', () => {
    expect(() =>
      configFromEnv({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' }),
    ).toThrow('HTTP_REQUEST_TIMEOUT_MS (10000) must be at least HTTP_HEADERS_TIMEOUT_MS (20000), or 0');
    expect(() => configFromEnv({ HTTP_IDLE_TIMEOUT_MS: '20000' })).toThrow(
      'HTTP_IDLE_TIMEOUT_MS (20000) must be longer than LIVE_HEARTBEAT_MS (20000)',
    );
    expect(configFromEnv({})).toMatchObject({
      httpHeadersTimeoutMs: 10_000,
      httpRequestTimeoutMs: 300_000,
      httpKeepAliveTimeoutMs: 10_000,
      httpIdleTimeoutMs: 60_000,
    });
  });
});
