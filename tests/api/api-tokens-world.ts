/**
 * Set-up shared by the API token tests (api-tokens-making, api-tokens-use): the demo app with a small
 * limit of calls per token, the second-line and first-line operators' sessions, and the calls the tests
 * make.
 */
import { expect } from 'vitest';
import { buildTestApp, type Target, type TestApp } from './harness.ts';

export type Headers = Record<string, string>;

export const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
export const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });

export function calls(t: () => TestApp) {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api${url}`, headers, payload });
  const makeToken = async (headers: Headers, body: Record<string, unknown>) => {
    const res = await call('POST', '/api-tokens', headers, { expires_at: inDays(30), ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; token: string; prefix: string; owner_id: number };
  };
  return { call, makeToken };
}

export async function openTokenWorld(
  target: Target,
): Promise<{ t: TestApp; admin: Headers; firstLine: Headers; firstLineId: number }> {
  const t = await buildTestApp(target, { config: { apiTokenRequestsPerMinute: 12 } });
  const admin = await t.as('admin@example.com');
  const firstLine = await t.as('operator@example.com');
  const firstLineId = Number(
    (
      await t.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'operator@example.com')
        .executeTakeFirstOrThrow()
    ).id,
  );
  return { t, admin, firstLine, firstLineId };
}
