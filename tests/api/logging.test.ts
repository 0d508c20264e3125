import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED_LOG_PATHS } from '../../server/app.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';

describe('request logs', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await buildTestApp(targets[0]!, { logger: { level: 'debug', redact: REDACTED_LOG_PATHS, stream } });
  });
  afterAll(() => t?.close());

  it('are structured JSON and never contain a password, a token or a cookie', async () => {
    const { token, cookie } = await t.login('admin@example.com', 'demo');
    await t.app.inject({ method: 'GET', url: '/api/tickets', headers: { authorization: `Bearer ${token}` } });
    await t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie } });
    await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin@example.com', password: 'wrong-secret-pw' },
    });
    expect(lines.length).toBeGreaterThan(3);
    const all = lines.join('\n');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(all).toContain('"url":"/api/tickets"');
    expect(all).not.toContain(token);
    expect(all).not.toContain(cookie.split('=')[1]!);
    expect(all).not.toContain('wrong-secret-pw');
  });
});
