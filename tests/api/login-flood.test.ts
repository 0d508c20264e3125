/**
 * Issue 31 item 6, "a slow login flood hurts everyone": wrong logins from rotating addresses took the
 * CPU signed-in users needed. Held by mechanisms, not timed: argon2 runs in one slot with a bounded
 * queue (beyond it 429 with Retry-After, nothing waits without bound), signed-in calls never enter it,
 * a budget of failed logins per tenant that no rotation of addresses or accounts escapes, and known
 * devices that still sign in during a flood. The queue's own rules: tests/unit/password-hashing.test.ts.
 */
import argon2 from 'argon2';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SharedLoginRateLimiter } from '../../server/auth/shared-attempts.ts';
import { tokenHash } from '../../server/auth/tokens.ts';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';

const SLOTS = 1;
const QUEUE = 3;
const BUDGET = 10;

/**
 * Until `check` holds: a state the test waits for (requests queued, answers in), never a duration; the
 * deadline only turns a state that never comes into a failure instead of a hang.
 */
async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('the state the test waits for never came');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function cookiePair(res: LightMyRequestResponse, name: string): string | undefined {
  const all = res.headers['set-cookie'];
  const header = (Array.isArray(all) ? all : [all ?? '']).find((c) => c.startsWith(`${name}=`));
  return header?.split(';')[0];
}

function expectWait(res: LightMyRequestResponse): number {
  expect(res.statusCode, res.body).toBe(429);
  const seconds = Number(res.headers['retry-after']);
  expect(Number.isInteger(seconds) && seconds >= 1).toBe(true);
  expect(res.json().message).toMatch(
    /^Too many login attempts\. Please try again in \d+ (seconds|minutes)\.$/,
  );
  return seconds;
}

describe.each(targets)('a login flood on $name', (target) => {
  let t: TestApp;
  /** The app's one hashing slot, held by the test until it lets go. */
  let hold: () => { release: () => void; done: Promise<void> };

  beforeAll(async () => {
    t = await buildTestApp(target, {
      config: {
        trustProxy: true,
        passwordHashing: { concurrency: SLOTS, queue: QUEUE },
        loginFailuresPerMinute: BUDGET,
      },
    });
    hold = () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const done = t.app.passwordHashing.queue.run('trusted', () => gate);
      return { release, done };
    };
  });
  afterAll(async () => {
    await t?.close();
  });
  // Each test starts with no failures counted: the budget is the tenant's, shared by the file's tests.
  beforeEach(async () => {
    await t.db.deleteFrom('auth_failures').execute();
  });

  /** A login from a client whose address a trusted proxy forwards (TRUST_PROXY=true). */
  const login = (username: string, password: string, address: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password },
      headers: { 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
    });

  it(`with ${SLOTS} hashing slot and a queue of ${QUEUE}, ${QUEUE} + 2 parallel logins: exactly 2 answered 429 with Retry-After`, async () => {
    const slot = hold();
    const answers: LightMyRequestResponse[] = [];
    const all = Array.from({ length: QUEUE + 2 }, (_, i) =>
      login(`queued${i}@example.com`, 'wrong', `198.51.100.${i}`).then((res) => {
        answers.push(res);
        return res;
      }),
    );
    // The two that find the queue full are answered while the slot is still held: nobody waits for a no.
    await until(() => answers.length === 2 && t.app.passwordHashing.queue.waiting('anonymous') === QUEUE);
    for (const refused of answers) expectWait(refused);
    slot.release();
    await slot.done;
    const statuses = (await Promise.all(all)).map((res) => res.statusCode).sort();
    expect(statuses).toEqual([422, 422, 422, 429, 429]);
    // A refusal for a full queue judged nothing: its attempt is not counted against the account.
    const done = await Promise.all(all);
    for (const [i, res] of done.entries()) {
      const rows = await t.db
        .selectFrom('auth_failures')
        .select('failed_at')
        .where('kind', '=', 'login')
        .where('key', 'like', `account:%:queued${i}@example.com`)
        .execute();
      const failures = rows.reduce((n, row) => n + row.failed_at.length, 0);
      expect(failures, `queued${i}: ${res.statusCode}`).toBe(res.statusCode === 429 ? 0 : 1);
    }
  });

  it('a signed-in user is answered while the slot is held and the queue is full', async () => {
    const client = await t.login('client@example.com');
    const slot = hold();
    const queued = Array.from({ length: QUEUE }, (_, i) =>
      login(`waiting${i}@example.com`, 'wrong', `198.51.101.${i}`),
    );
    await until(() => t.app.passwordHashing.queue.waiting('anonymous') === QUEUE);
    expectWait(await login('one-more@example.com', 'wrong', '198.51.101.99'));
    // Reads and token refreshes hash nothing: they do not queue behind the logins.
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/tickets',
      headers: { authorization: `Bearer ${client.token}` },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.length).toBeGreaterThan(0);
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: client.cookie },
    });
    expect(refresh.statusCode, refresh.body).toBe(200);
    expect(t.app.passwordHashing.queue.waiting('anonymous')).toBe(QUEUE);
    slot.release();
    await slot.done;
    expect((await Promise.all(queued)).map((res) => res.statusCode)).toEqual([422, 422, 422]);
  });

  it("rotating X-Forwarded-For escapes neither the account's slow-down nor the tenant's budget", async () => {
    // One account from a new address each time: all 5 failures count for the account.
    for (let i = 0; i < 5; i++) {
      expect((await login('operator@example.com', `guess${i}`, `203.0.113.${i}`)).statusCode).toBe(422);
    }
    const account = await t.db
      .selectFrom('auth_failures')
      .select(['tenant_id', 'failed_at'])
      .where('kind', '=', 'login')
      .where('key', 'like', 'account:%:operator@example.com')
      .executeTakeFirstOrThrow();
    expect(account.failed_at).toHaveLength(5);
    // So a sixth from yet another address, at the moment of the fifth, waits a second: the limiter on
    // those rows with its clock pinned there (the real clock would make the wait depend on speed).
    const fifth = Number(account.failed_at[4]);
    const pinned = new SharedLoginRateLimiter(t.db, { clock: () => fifth });
    expect(await pinned.begin(Number(account.tenant_id), 'operator@example.com', '203.0.113.5')).toEqual({
      allowed: false,
      retryAfterMs: 1_000,
    });
    // New accounts and new addresses each time: the tenant's 10 failures a minute are the end of it.
    for (let i = 0; i < BUDGET - 5; i++) {
      expect((await login(`spray${i}@example.com`, 'Welcome2026', `192.0.2.${i}`)).statusCode).toBe(422);
    }
    const refused = await login('spray-next@example.com', 'Welcome2026', '192.0.2.200');
    expect(expectWait(refused)).toBeLessThanOrEqual(60);
    // Refused before any hashing, and counted nowhere.
    const rows = await t.db
      .selectFrom('auth_failures')
      .select('key')
      .where('key', 'like', '%spray-next%')
      .execute();
    expect(rows).toEqual([]);
    // A right password from a browser the account never signed in on waits too (the trade-off).
    expectWait(await login('client@example.com', 'demo', '192.0.2.201'));
  });

  it('a known device signs in during the flood, held to its own limit; a new browser waits', async () => {
    const first = await login('client@example.com', 'demo', '198.51.102.1');
    expect(first.statusCode, first.body).toBe(200);
    const device = cookiePair(first, 'known_device');
    expect(device).toMatch(/^known_device=\d+\.\d+\./);
    expect(first.headers['set-cookie']).toEqual(
      expect.arrayContaining([expect.stringMatching(/^known_device=.*Path=\/api\/auth\/login.*HttpOnly/)]),
    );
    for (let i = 0; i < BUDGET; i++) {
      expect((await login(`flood${i}@example.com`, 'x', `192.0.2.${100 + i}`)).statusCode).toBe(422);
    }
    expectWait(await login('client@example.com', 'demo', '198.51.102.2'));
    // The cookie is the account's only: another account's login with it is a stranger's.
    expectWait(await login('other@example.com', 'demo', '198.51.102.3', device));
    expect((await login('client@example.com', 'demo', '198.51.102.4', device)).statusCode).toBe(200);
    // A forged or altered cookie is no cookie.
    const altered = device!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expectWait(await login('client@example.com', 'demo', '198.51.102.5', altered));
    // The device's own failures: 5, then it waits like anyone.
    for (let i = 0; i < 5; i++) {
      expect((await login('client@example.com', 'wrong', '198.51.102.6', device)).statusCode).toBe(422);
    }
    expectWait(await login('client@example.com', 'demo', '198.51.102.6', device));
  });

  it('a known device is served before the anonymous lane: not refused while that lane is full', async () => {
    const first = await login('other@example.com', 'demo', '198.51.103.1');
    const device = cookiePair(first, 'known_device');
    const slot = hold();
    const queued = Array.from({ length: QUEUE }, (_, i) =>
      login(`lane${i}@example.com`, 'wrong', `198.51.103.${10 + i}`),
    );
    await until(() => t.app.passwordHashing.queue.waiting('anonymous') === QUEUE);
    expectWait(await login('other@example.com', 'demo', '198.51.103.2'));
    const known = login('other@example.com', 'demo', '198.51.103.3', device);
    await until(() => t.app.passwordHashing.queue.waiting('trusted') === 1);
    slot.release();
    await slot.done;
    expect((await known).statusCode).toBe(200);
    expect((await Promise.all(queued)).map((res) => res.statusCode)).toEqual([422, 422, 422]);
  });

  it("a hash with the library's old defaults (4 threads per verify) still signs in and is replaced", async () => {
    const old = await argon2.hash('Old-Params-2024');
    expect(old).toContain('$m=65536,p=4,t=3$');
    const client = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'client@example.com')
      .executeTakeFirstOrThrow();
    const original = await t.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    await t.db.updateTable('users').set({ password_hash: old }).where('id', '=', client.id).execute();
    try {
      expect((await login('client@example.com', 'Old-Params-2024', '198.51.104.1')).statusCode).toBe(200);
      const stored = await t.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', client.id)
        .executeTakeFirstOrThrow();
      expect(stored.password_hash).toContain('$argon2id$v=19$m=19456,p=1,t=2$');
      expect((await login('client@example.com', 'Old-Params-2024', '198.51.104.1')).statusCode).toBe(200);
    } finally {
      await t.db
        .updateTable('users')
        .set({ password_hash: original.password_hash })
        .where('id', '=', client.id)
        .execute();
    }
  });

  it('setting a password (records API, reset link) while the queue is full answers 503 with Retry-After', async () => {
    const admin = await t.as('admin@example.com');
    const other = await t.db
      .selectFrom('users')
      .select(['id', 'password_hash', 'tenant_id'])
      .where('email', '=', 'other@example.com')
      .executeTakeFirstOrThrow();
    const token = 'flood-test-reset-token-0123456789abcdefghijklmn';
    await t.db
      .insertInto('password_resets')
      .values({
        tenant_id: other.tenant_id,
        user_id: other.id,
        token_hash: tokenHash(token),
        expires_at: new Date(Date.now() + 3_600_000),
        created_at: new Date(),
      })
      .execute();
    const setPassword = () =>
      t.app.inject({
        method: 'PUT',
        url: `/api/clients/${other.id}`,
        headers: admin,
        payload: { password: 'Correct-Horse-42' },
      });
    const reset = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/password/reset',
        payload: {
          token,
          password: 'Lange-Zin-Met-7-Woorden',
          password_confirmation: 'Lange-Zin-Met-7-Woorden',
        },
      });
    const slot = hold();
    const trustedLane = Array.from({ length: QUEUE }, () => hold());
    try {
      for (const res of [await setPassword(), await reset()]) {
        expect(res.statusCode, res.body).toBe(503);
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(res.json().message).toMatch(
          /^The server is busy checking passwords\. Try again in \d+ seconds\.$/,
        );
      }
      const unchanged = await t.db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', other.id)
        .executeTakeFirstOrThrow();
      expect(unchanged.password_hash).toBe(other.password_hash);
    } finally {
      slot.release();
      for (const job of trustedLane) job.release();
      await Promise.all([slot.done, ...trustedLane.map((job) => job.done)]);
    }
    expect((await setPassword()).statusCode).toBe(200);
    expect((await reset()).statusCode).toBe(200);
    expect((await login('other@example.com', 'Lange-Zin-Met-7-Woorden', '198.51.105.1')).statusCode).toBe(
      200,
    );
  });
});

describe.each(targets.filter((t) => t.name === 'postgres'))(
  'the budget across instances on $name',
  (target) => {
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      a = await buildTestApp(target, { config: { trustProxy: true, loginFailuresPerMinute: BUDGET } });
      b = await buildSecondInstance(a);
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it(`${BUDGET} failures spread over two instances and ${BUDGET} addresses: the next is refused on either`, async () => {
      const login = (app: TestApp, username: string, address: string) =>
        app.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username, password: 'Summer2026!' },
          headers: { 'x-forwarded-for': address },
        });
      for (let i = 0; i < BUDGET; i++) {
        expect((await login(i % 2 ? a : b, `spread${i}@example.com`, `192.0.2.${i}`)).statusCode).toBe(422);
      }
      expectWait(await login(a, 'spread-a@example.com', '192.0.2.50'));
      expectWait(await login(b, 'spread-b@example.com', '192.0.2.51'));
    });
  },
);
