/**
 * API tokens (issue 38, item 3) in use: expiring, revocable (on every instance within a second, and
 * ending a live event stream), limited per token, never ending the owner's browser session, noting
 * their last use; service accounts hold tokens and cannot sign in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { openEvents } from './sse.ts';
import { bearer, calls, inDays, openTokenWorld, type Headers } from './api-tokens-world.ts';
import { registry } from '../../server/schema/registry.ts';
import { pickableFilter } from '../../src/custom/forms/pickable.ts';
import { toBuilder, toQueryString } from '../../src/dataProvider/builder.ts';

/** Polls `check` until it is true or `ms` have passed; true when it became true in time. */
async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(targets)('API tokens on $name', (target) => {
  let t: TestApp;
  let admin: Headers;
  let firstLine: Headers;
  let firstLineId: number;
  const { call, makeToken } = calls(() => t);

  beforeAll(async () => {
    ({ t, admin, firstLine, firstLineId } = await openTokenWorld(target));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stops working when it expires', async () => {
    const made = await makeToken(firstLine, {
      name: 'Short',
      scopes: ['tenant.tickets.index'],
      expires_at: new Date(Date.now() + 1_500).toISOString(),
    });
    expect((await call('GET', '/tickets', bearer(made.token))).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const expired = await call('GET', '/tickets', bearer(made.token));
    expect(expired.statusCode).toBe(401);
  });

  it('is revoked by its owner or by second line; others see a 404, and a revoked token is a 401', async () => {
    const mine = await makeToken(firstLine, { name: 'Mine', scopes: ['tenant.tickets.index'] });
    const admins = await makeToken(admin, { name: 'Admins', scopes: ['tenant.tickets.index'] });
    expect((await call('GET', '/tickets', bearer(mine.token))).statusCode).toBe(200);

    // First line sees its own tokens only; second line every token of the tenant.
    const ownList = await call('GET', '/api-tokens', firstLine);
    expect(ownList.statusCode, ownList.body).toBe(200);
    const ownIds = (ownList.json().data as { id: number; owner_id: number }[]).map((r) => r.owner_id);
    expect(new Set(ownIds)).toEqual(new Set([firstLineId]));
    const allList = await call('GET', '/api-tokens', admin);
    expect(allList.json().total).toBeGreaterThan(ownList.json().total);
    expect((await call('GET', `/api-tokens/${mine.id}`, admin)).statusCode).toBe(200);

    expect((await call('GET', `/api-tokens/${admins.id}`, firstLine)).statusCode).toBe(404);
    expect((await call('POST', `/api-tokens/${admins.id}/revoke`, firstLine)).statusCode).toBe(404);
    expect((await call('GET', '/tickets', bearer(admins.token))).statusCode).toBe(200);

    const revoked = await call('POST', `/api-tokens/${mine.id}/revoke`, firstLine);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json().revoked_at).toEqual(expect.any(String));
    expect((await call('GET', '/tickets', bearer(mine.token))).statusCode).toBe(401);

    const byAdmin = await call('POST', `/api-tokens/${admins.id}/revoke`, admin);
    expect(byAdmin.statusCode).toBe(200);
    expect((await call('GET', '/tickets', bearer(admins.token))).statusCode).toBe(401);

    const entry = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'record.update')
      .where('resource', '=', 'api-tokens')
      .where('record_id', '=', mine.id)
      .executeTakeFirstOrThrow();
    expect(entry.changes).toEqual({ revoked_at: [null, revoked.json().revoked_at] });
  });

  it('leaves the owner signed in in the browser while an integration calls with a token', async () => {
    // A fresh sign-in of the first-line operator, as a browser's (it replaces the suite's session).
    const session = await t.login('operator@example.com');
    const browser = { authorization: `Bearer ${session.token}` };
    firstLine = browser;
    const made = await makeToken(browser, { name: 'Integration', scopes: ['tenant.tickets.index'] });
    for (let i = 0; i < 3; i++)
      expect((await call('GET', '/tickets', bearer(made.token))).statusCode).toBe(200);
    // A logout sent with the token ends no session.
    expect((await call('POST', '/auth/logout', bearer(made.token))).statusCode).toBe(200);
    const me = await call('GET', '/auth/me', browser);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json().user.email).toBe('operator@example.com');
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: session.cookie },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    expect((await call('GET', '/tickets', bearer(made.token))).statusCode).toBe(200);
  });

  it('notes its last use and address at most once a minute', async () => {
    const made = await makeToken(firstLine, { name: 'Noted', scopes: ['tenant.tickets.index'] });
    const before = await t.db
      .selectFrom('api_tokens')
      .select(['last_used_at'])
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(before.last_used_at).toBeNull();
    await t.app.inject({
      method: 'GET',
      url: '/api/tickets',
      headers: bearer(made.token),
      remoteAddress: '10.1.2.3',
    });
    const first = await t.db
      .selectFrom('api_tokens')
      .select(['last_used_at', 'last_used_ip'])
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(first.last_used_ip).toBe('10.1.2.3');
    expect(first.last_used_at).toBeInstanceOf(Date);
    await t.app.inject({
      method: 'GET',
      url: '/api/tickets',
      headers: bearer(made.token),
      remoteAddress: '10.9.9.9',
    });
    const second = await t.db
      .selectFrom('api_tokens')
      .select(['last_used_at', 'last_used_ip'])
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(second).toEqual(first);
  });

  it('has a limit of calls per token: 429 with Retry-After, other tokens unaffected', async () => {
    const busy = await makeToken(firstLine, { name: 'Busy', scopes: ['tenant.tickets.index'] });
    const calm = await makeToken(firstLine, { name: 'Calm', scopes: ['tenant.tickets.index'] });
    for (let i = 0; i < 12; i++)
      expect((await call('GET', '/tickets', bearer(busy.token))).statusCode).toBe(200);
    const refused = await call('GET', '/tickets', bearer(busy.token));
    expect(refused.statusCode).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.json().message).toMatch(
      /^Too many calls with this API token\. Please try again in \d+ seconds\.$/,
    );
    expect((await call('GET', '/tickets', bearer(calm.token))).statusCode).toBe(200);
    // The owner's session is no token and has no such limit.
    expect((await call('GET', '/tickets', firstLine)).statusCode).toBe(200);
  });

  it('refuses a malformed or unknown sdk_ token with 401, and another tenant does not know it', async () => {
    expect((await call('GET', '/tickets', bearer('sdk_short'))).statusCode).toBe(401);
    expect((await call('GET', '/tickets', bearer(`sdk_${'A'.repeat(43)}`))).statusCode).toBe(401);
    const made = await makeToken(firstLine, { name: 'Tenant', scopes: ['tenant.tickets.index'] });
    await t.db.insertInto('tenants').values({ slug: 'tokenother', name: 'Other' }).execute();
    const elsewhere = await t.app.inject({
      method: 'GET',
      url: '/api/tickets',
      headers: { ...bearer(made.token), host: 'tokenother.localhost' },
    });
    expect(elsewhere.statusCode, elsewhere.body).toBe(401);
  });

  it('service accounts: made by second line, cannot sign in, hold tokens made for them by second line', async () => {
    const role = await t.db
      .selectFrom('users')
      .select('role_id')
      .where('email', '=', 'operator@example.com')
      .executeTakeFirstOrThrow();
    const made = await call('POST', '/operators', admin, {
      first_name: 'Monitoring',
      last_name: 'Koppeling',
      email: 'monitoring@example.com',
      is_operator: 1,
      role_id: role.role_id,
      service_account: true,
      password: 'Een-lang-wachtwoord-2026!',
    });
    expect(made.statusCode, made.body).toBe(201);
    const accountId = made.json().id as number;
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'monitoring@example.com', password: 'Een-lang-wachtwoord-2026!' },
    });
    expect(login.statusCode).toBe(422);

    // Not a person: the operator selectors (x-pickable) leave it out; the plain list still has it.
    const operators = async (filter: Record<string, unknown>) => {
      const builder = toBuilder({
        sort: { field: 'full_name', order: 'ASC' },
        filter,
        pagination: { page: 1, perPage: 100 },
      });
      const res = await call('GET', `/operators?${toQueryString({ builder })}`, admin);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as { id: number }[]).map((r) => Number(r.id));
    };
    const offered = await operators(pickableFilter(registry().require('operators')));
    expect(offered).toContain(firstLineId);
    expect(offered).not.toContain(accountId);
    expect(await operators({})).toContain(accountId);

    const mayNot = await call('POST', '/api-tokens', firstLine, {
      name: 'Not mine',
      owner_id: accountId,
      scopes: ['tenant.tickets.index'],
      expires_at: inDays(1),
    });
    expect(mayNot.statusCode).toBe(422);
    expect(Object.keys(mayNot.json().errors)).toEqual(['owner_id']);

    const token = await makeToken(admin, {
      name: 'Monitoring',
      owner_id: accountId,
      scopes: ['tenant.tickets.index'],
    });
    expect(token.owner_id).toBe(accountId);
    expect((await call('GET', '/tickets', bearer(token.token))).statusCode).toBe(200);
    // The service account's role (first line) decides: the admin's own rights are not lent.
    expect((await call('GET', '/invoices', bearer(token.token))).statusCode).toBe(403);
  });
});

describe.each(targets)('a live event stream opened with an API token on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    // Heartbeats every 100 ms: each checks the token again.
    t = await buildTestApp(target, {
      config: { liveHeartbeatMs: 100, deadlineCheckMs: 0, apiTokenRequestsPerMinute: 2 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stays open across heartbeats (not counted as calls) and ends when the token is revoked', async () => {
    const operator = await t.as('operator@example.com');
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/api-tokens',
      headers: operator,
      payload: { name: 'Live', scopes: ['tenant.tickets.index'], expires_at: inDays(1) },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id, token } = made.json() as { id: number; token: string };
    const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const stream = await openEvents(origin, bearer(token));
    try {
      expect(stream.status).toBe(200);
      await stream.next((e) => e.event === 'ready');
      // Five heartbeats, each a check of the token, with a limit of 2 calls a minute: still open.
      expect(await within(3_000, async () => stream.comments >= 5)).toBe(true);
      let ended = false;
      void stream.ended.then(() => (ended = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(ended).toBe(false);
      const revoked = await t.app.inject({
        method: 'POST',
        url: `/api/api-tokens/${id}/revoke`,
        headers: operator,
      });
      expect(revoked.statusCode, revoked.body).toBe(200);
      expect(await within(1_000, async () => ended)).toBe(true);
    } finally {
      stream.close();
    }
  });
});

describe.each(targets.filter((t) => t.name === 'postgres'))(
  'API tokens on two instances on $name',
  (target) => {
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

    it('a token revoked on A is refused on B within a second', async () => {
      const operator = await a.as('operator@example.com');
      const made = await a.app.inject({
        method: 'POST',
        url: '/api/api-tokens',
        headers: operator,
        payload: { name: 'Shared', scopes: ['tenant.tickets.index'], expires_at: inDays(1) },
      });
      expect(made.statusCode, made.body).toBe(201);
      const { id, token } = made.json() as { id: number; token: string };
      const onB = () => b.app.inject({ method: 'GET', url: '/api/tickets', headers: bearer(token) });
      // B has the token's context cached (5 s) before the revocation.
      expect((await onB()).statusCode).toBe(200);
      expect((await onB()).statusCode).toBe(200);
      expect(b.app.sessionEvents?.listening).toBe(true);
      const revoked = await a.app.inject({
        method: 'POST',
        url: `/api/api-tokens/${id}/revoke`,
        headers: operator,
      });
      expect(revoked.statusCode, revoked.body).toBe(200);
      const started = Date.now();
      expect(await within(1_000, async () => (await onB()).statusCode === 401)).toBe(true);
      expect(Date.now() - started).toBeLessThan(1_000);
    });
  },
);
