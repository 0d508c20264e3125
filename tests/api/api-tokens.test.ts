/**
 * API tokens (issue 38, item 3): made through POST /api/api-tokens (shown once, kept hashed), sent as
 * `Authorization: Bearer sdk_…`, acting as their owner within their scopes; expiring, revocable (on
 * every instance within a second), limited per token, never ending the owner's browser session, and
 * audited without their secret. Service accounts hold tokens and cannot sign in.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { openEvents } from './sse.ts';
import { expectCallerFirst, expectInputErrors, inputErrorsOf } from './input-answers.ts';
import { registry } from '../../server/schema/registry.ts';
import { pickableFilter } from '../../src/custom/forms/pickable.ts';
import { toBuilder, toQueryString } from '../../src/dataProvider/builder.ts';

type Headers = Record<string, string>;

/** Polls `check` until it is true or `ms` have passed; true when it became true in time. */
async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function calls(t: () => TestApp) {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    t().app.inject({ method, url: `/api${url}`, headers, payload });
  const makeToken = async (headers: Headers, body: Record<string, unknown>) => {
    const res = await call('POST', '/api-tokens', headers, { expires_at: inDays(30), ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; token: string; prefix: string; owner_id: number };
  };
  return { call, makeToken };
}

describe.each(targets)('API tokens on $name', (target) => {
  let t: TestApp;
  let admin: Headers;
  let firstLine: Headers;
  let firstLineId: number;
  const { call, makeToken } = calls(() => t);

  beforeAll(async () => {
    t = await buildTestApp(target, { config: { apiTokenRequestsPerMinute: 12 } });
    admin = await t.as('admin@example.com');
    firstLine = await t.as('operator@example.com');
    firstLineId = Number(
      (
        await t.db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'operator@example.com')
          .executeTakeFirstOrThrow()
      ).id,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows the token once, keeps only its hash, and audits its creation without it', async () => {
    const made = await makeToken(firstLine, { name: 'Monitoring', scopes: ['tenant.tickets.index'] });
    expect(made.token).toMatch(/^sdk_[A-Za-z0-9_-]{43}$/);
    expect(made.prefix).toBe(made.token.slice(0, 12));
    expect(made.owner_id).toBe(firstLineId);

    const row = await t.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(made.token));
    expect(JSON.stringify(row)).not.toContain(made.token);

    const shown = await call('GET', `/api-tokens/${made.id}`, firstLine);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).not.toHaveProperty('token');
    expect(shown.json()).not.toHaveProperty('token_hash');
    expect(shown.body).not.toContain(made.token.slice(12));

    const entries = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('resource', '=', 'api-tokens')
      .where('record_id', '=', made.id)
      .execute();
    expect(entries.map((e) => e.action)).toEqual(['record.store']);
    expect(entries[0]!.changes).toMatchObject({ name: 'Monitoring', scopes: ['tenant.tickets.index'] });
    const { rows } = await sql<{
      log: string;
    }>`select coalesce(json_agg(a)::text, '') as log from audit_log a`.execute(t.db);
    expect(rows[0]!.log).not.toContain(made.token.slice(4));
    expect(rows[0]!.log).not.toContain(row.token_hash!);
  });

  it('allows what its scopes and its owner allow, and refuses the rest with 403', async () => {
    // First line holds tickets, not invoices: the invoices scope gives the token nothing.
    const { token } = await makeToken(firstLine, {
      name: 'Read tickets',
      scopes: ['tenant.tickets.index', 'tenant.tickets.show', 'tenant.invoices.index'],
    });
    const list = await call('GET', '/tickets', bearer(token));
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().total).toBeGreaterThan(0);
    const ticketId = list.json().data[0].id as number;
    expect((await call('GET', `/tickets/${ticketId}`, bearer(token))).statusCode).toBe(200);
    // Not in the scopes: 403 although the owner may.
    expect((await call('PUT', `/tickets/${ticketId}`, bearer(token), { description: 'x' })).statusCode).toBe(
      403,
    );
    expect((await call('GET', '/companies', bearer(token))).statusCode).toBe(403);
    // In the scopes, not the owner's: 403.
    expect((await call('GET', '/invoices', bearer(token))).statusCode).toBe(403);
    // Allowed, but a record the owner may not see (none such): 404.
    expect((await call('GET', '/tickets/2147483000', bearer(token))).statusCode).toBe(404);
    // A token cannot make tokens, whatever its scopes.
    const { token: maker } = await makeToken(firstLine, {
      name: 'Maker',
      scopes: ['tenant.api-tokens.store'],
    });
    const refused = await call('POST', '/api-tokens', bearer(maker), {
      name: 'Child',
      scopes: ['tenant.tickets.index'],
      expires_at: inDays(1),
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().message).toBe('An API token cannot create tokens: sign in to create one.');
  });

  it('records the call it made in the audit log with its id', async () => {
    const made = await makeToken(admin, {
      name: 'Cleaner',
      scopes: ['tenant.tickets.store', 'tenant.tickets.destroy'],
    });
    const created = await call('POST', '/tickets', bearer(made.token), { description: 'Made by a token' });
    expect(created.statusCode, created.body).toBe(201);
    const gone = await call('DELETE', `/tickets/${created.json().id}`, bearer(made.token));
    expect(gone.statusCode, gone.body).toBe(200);
    const entry = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'record.destroy')
      .where('resource', '=', 'tickets')
      .where('record_id', '=', created.json().id)
      .executeTakeFirstOrThrow();
    expect(entry.token_id).toBe(made.id);
    expect(entry.actor).toBe('admin@example.com');
  });

  it('refuses unknown scopes, a past or too distant expiry and another person as owner (422)', async () => {
    const post = (body: object, headers = firstLine) =>
      call('POST', '/api-tokens', headers, {
        name: 'Bad',
        scopes: ['tenant.tickets.index'],
        expires_at: inDays(1),
        ...body,
      });
    const unknown = await post({ scopes: ['tenant.tickets.fly'] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.scopes).toEqual([
      'There is no permission tenant.tickets.fly to give a token.',
    ]);
    const malformed = await post({ scopes: ['portal.tickets.index'] });
    expect(malformed.statusCode).toBe(422);
    expect(Object.keys(malformed.json().errors)).toEqual(['scopes']);
    const past = await post({ expires_at: inDays(-1) });
    expect(past.statusCode).toBe(422);
    expect(past.json().errors.expires_at).toEqual(['The expiry date must lie in the future.']);
    const far = await post({ expires_at: inDays(400) });
    expect(far.statusCode).toBe(422);
    expect(far.json().errors.expires_at).toEqual(['A token expires within 366 days.']);
    const missing = await call('POST', '/api-tokens', firstLine, {
      name: 'No expiry',
      scopes: ['tenant.tickets.index'],
    });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['expires_at']);
    // Second line too: a token acts as its owner, so it is never for another person.
    const forPerson = await post({ owner_id: firstLineId }, admin);
    expect(forPerson.statusCode).toBe(422);
    expect(forPerson.json().errors.owner_id).toEqual([
      'A token is for yourself, or for a service account if you may manage tokens.',
    ]);
    const count = await t.db
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('name', '=', 'Bad')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('answers bad input with a 422 naming each field, in the words of the record body', async () => {
    const base = { name: 'Bad input', scopes: ['tenant.tickets.index'], expires_at: inDays(1) };
    const answer = inputErrorsOf(
      () => t.app,
      '/api/api-tokens',
      () => firstLine,
    );
    const without = (name: keyof typeof base) =>
      Object.fromEntries(Object.entries(base).filter(([k]) => k !== name));
    const long = `x${'y'.repeat(69)}`;
    await expectInputErrors(answer, [
      ['a list', [base], { body: ['The request body must be a JSON object.'] }],
      ['null', null, { body: ['The request body must be a JSON object.'] }],
      ['no name', without('name'), { name: ['The name field is required.'] }],
      ['an empty name', { ...base, name: '' }, { name: ['The name field is required.'] }],
      ['a number as name', { ...base, name: 5 }, { name: ['The name must be of type string.'] }],
      [
        'a long name',
        { ...base, name: 'n'.repeat(101) },
        { name: ['The name may not be longer than 100 characters.'] },
      ],
      ['an unknown field', { ...base, colour: 'red' }, { colour: ['Unknown field "colour".'] }],
      [
        'a long unknown name',
        { ...base, [long]: 1 },
        { [long.slice(0, 60)]: [`Unknown field ${JSON.stringify(long).slice(0, 60)}.`] },
      ],
      ['a read-only field', { ...base, prefix: 'sdk_x' }, { prefix: ['The prefix field is read-only.'] }],
      [
        'scopes as text',
        { ...base, scopes: 'tenant.tickets.index' },
        { scopes: ['The scopes must be of type array.'] },
      ],
      ['no scopes', { ...base, scopes: [] }, { scopes: ['The scopes must NOT have fewer than 1 items.'] }],
      ['a scope as number', { ...base, scopes: [5] }, { scopes: ['The scopes must be of type string.'] }],
      [
        'a scope of another form',
        { ...base, scopes: ['portal.tickets.index'] },
        { scopes: ['The scopes must match pattern "^tenant\\.[a-z0-9-]{1,60}\\.[a-z0-9-]{1,60}$".'] },
      ],
      [
        'a scope twice',
        { ...base, scopes: ['tenant.tickets.index', 'tenant.tickets.index'] },
        { scopes: ['The scopes must NOT have duplicate items (items ## 1 and 0 are identical).'] },
      ],
      ['no expiry', without('expires_at'), { expires_at: ['The expires_at field is required.'] }],
      [
        'an expiry that is no date',
        { ...base, expires_at: 'tomorrow' },
        { expires_at: ['The expires_at must be a valid date-time.'] },
      ],
      [
        'an owner as text',
        { ...base, owner_id: '5' },
        { owner_id: ['The owner_id must be of type integer.'] },
      ],
      // Every problem at once (the names the body may not have were said alone before the schema).
      [
        'an unknown field and no name',
        { ...without('name'), colour: 'red', id: 3 },
        {
          colour: ['Unknown field "colour".'],
          id: ['The id field is read-only.'],
          name: ['The name field is required.'],
        },
      ],
      [
        'two fields wrong',
        { ...base, name: 5, expires_at: 'tomorrow' },
        {
          name: ['The name must be of type string.'],
          expires_at: ['The expires_at must be a valid date-time.'],
        },
      ],
    ]);
    // An owner that does not exist is the database's to say (by hand, after the body's checks).
    expect(await answer({ ...base, owner_id: 2147483000 })).toEqual({
      owner_id: ['The selected owner_id is invalid.'],
    });
  });

  it('refuses a revoke of an id that is none with 422, after 401', async () => {
    for (const raw of ['0', 'abc', '2147483648']) {
      const res = await call('POST', `/api-tokens/${raw}/revoke`, firstLine);
      const line = `The id "${raw}" is not valid: it must be a positive whole number.`;
      expect([res.statusCode, res.json()]).toEqual([422, { message: line, errors: { id: [line] } }]);
      expect((await call('POST', `/api-tokens/${raw}/revoke`, {})).statusCode).toBe(401);
    }
  });

  it('answers 401 and 403 before it judges the body', async () => {
    await expectCallerFirst(t.app, '/api/api-tokens', await t.as('client@example.com'));
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
