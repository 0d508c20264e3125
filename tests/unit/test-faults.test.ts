/**
 * The browser tests' faults on request (server/http/faults.ts): off unless both E2E_FAULTS=1 and
 * NODE_ENV=test; when on, only requests whose header names their method and path fail, as a 500 from
 * the one error handler or a connection cut without an answer.
 */
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installErrorHandler } from '../../server/http/error-handler.ts';
import { faultsEnabled, installFaults, parseFaults } from '../../server/http/faults.ts';

describe('faultsEnabled', () => {
  it('needs E2E_FAULTS=1 and NODE_ENV=test both', () => {
    expect(faultsEnabled({ E2E_FAULTS: '1', NODE_ENV: 'test' })).toBe(true);
    expect(faultsEnabled({})).toBe(false);
    expect(faultsEnabled({ NODE_ENV: 'test' })).toBe(false);
    expect(faultsEnabled({ E2E_FAULTS: 'true', NODE_ENV: 'test' })).toBe(false);
  });

  it('ignores E2E_FAULTS without NODE_ENV=test (a production start sets none), and says so', () => {
    const warn = vi.fn();
    expect(faultsEnabled({ E2E_FAULTS: '1' }, warn)).toBe(false);
    expect(faultsEnabled({ E2E_FAULTS: '1', NODE_ENV: 'production' }, warn)).toBe(false);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[0]![0]).toMatch(/E2E_FAULTS is ignored/);
  });
});

describe('parseFaults', () => {
  it('reads kind, method and path, several separated by commas, and leaves out what does not parse', () => {
    expect(parseFaults('500 get /api/tickets, reset POST /api/messages, 404 GET /x, 500 /api/y')).toEqual([
      { kind: '500', method: 'GET', path: '/api/tickets' },
      { kind: 'reset', method: 'POST', path: '/api/messages' },
    ]);
    expect(parseFaults(undefined)).toEqual([]);
  });
});

describe('installFaults', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  async function build(withFaults: boolean) {
    app = Fastify();
    installErrorHandler(app);
    if (withFaults) installFaults(app);
    app.get('/api/things', async () => ({ data: [] }));
    app.get('/api/things/:id', async () => ({ id: 1 }));
    return app;
  }

  it('answers 500 through the error handler for the named method and path only', async () => {
    const server = await build(true);
    const header = { 'x-e2e-fault': '500 GET /api/things' };
    const failed = await server.inject({ url: '/api/things?page=2', headers: header });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ message: 'Server error.' });
    expect((await server.inject({ url: '/api/things/1', headers: header })).statusCode).toBe(200);
    expect((await server.inject({ method: 'POST', url: '/api/things', headers: header })).statusCode).toBe(
      404,
    );
    expect((await server.inject({ url: '/api/things' })).statusCode).toBe(200);
  });

  it('means nothing when faults are off', async () => {
    const server = await build(false);
    const answer = await server.inject({
      url: '/api/things',
      headers: { 'x-e2e-fault': '500 GET /api/things' },
    });
    expect(answer.statusCode).toBe(200);
  });

  it('cuts the connection without an answer for kind reset', async () => {
    const server = await build(true);
    await server.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.server.address() as AddressInfo;
    const outcome = await new Promise<string>((resolve) => {
      get({
        port,
        host: '127.0.0.1',
        path: '/api/things',
        headers: { 'x-e2e-fault': 'reset GET /api/things' },
      })
        .on('response', (res) => resolve(`answered ${res.statusCode}`))
        .on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    expect(outcome).toMatch(/ECONNRESET|socket hang up/);
  });
});
