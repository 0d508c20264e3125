/**
 * SIGTERM with connections held open: a keep-alive client (a browser, a balancer) and one that stalls in
 * the middle of a request. During the drain every answer says `Connection: close`, so keep-alive clients
 * go elsewhere; after it, requests in flight get SHUTDOWN_CLOSE_MS and whatever is still open is cut, so
 * the process exits instead of waiting for the clients' timeouts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freePort, startServer, waitFor, type ServerProcess } from './processes.ts';
import { seededDataFolder } from './seed-copy.ts';
import { rawConnection } from './raw-socket.ts';

const request = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`;

describe('SIGTERM with connections held open', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sd-shutdown-connections-'));
  let server: ServerProcess | undefined;

  afterAll(async () => {
    if (server && !server.hasExited()) server.child.kill('SIGKILL');
    await server?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers Connection: close while draining, then cuts what is still open and exits 0', async () => {
    seededDataFolder(inject('seeds'), dataDir);
    const port = await freePort();
    server = startServer({
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED: 'demo',
      SHUTDOWN_DRAIN_MS: '1500',
      SHUTDOWN_CLOSE_MS: '1000',
      LOG_LEVEL: 'info',
    });
    await server.ready;

    // A keep-alive client that has had an answer and keeps its connection.
    const keepAlive = await rawConnection(port);
    keepAlive.socket.write(request('/api/health/live'));
    await waitFor('the first answer', () => /\r\n\r\n\{.*\}$/s.test(keepAlive.received()), 5_000, 20);
    expect(keepAlive.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(keepAlive.received()).toMatch(/\r\nconnection: keep-alive\r\n/i);

    // A client stalled half-way through its request headers: in flight for as long as it likes.
    const stalled = await rawConnection(port);
    stalled.socket.write('GET /api/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n');

    server.child.kill('SIGTERM');
    await waitFor('the drain', () => server!.output().includes('not ready: draining'), 5_000, 20);
    // Draining: served still, told to go elsewhere next time, and the server closes the connection.
    const before = keepAlive.received().length;
    keepAlive.socket.write(request('/api/health/live'));
    await waitFor('the answer while draining and the connection closed', () => keepAlive.closed(), 5_000, 20);
    const duringDrain = keepAlive.received().slice(before);
    expect(duringDrain).toMatch(/^HTTP\/1\.1 200/);
    expect(duringDrain).toMatch(/\r\nconnection: close\r\n/i);

    // After the drain and SHUTDOWN_CLOSE_MS, the stalled connection is cut and the process ends.
    expect(await server.exited, server.output()).toBe(0);
    expect(stalled.closed()).toBe(true);
    expect(server.output()).toContain('cutting the connections still open');
  }, 60_000);
});
