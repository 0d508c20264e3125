/**
 * Signing keys in the database (issue 15): two apps on ONE PostgreSQL database with no JWT_SECRET
 * accept each other's access tokens and download links, also across a key rotation; the embedded
 * database keeps its secret in DATA_DIR.
 */
import { cpSync, existsSync, rmSync } from 'node:fs';
import { createHmac, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config.ts';
import { jwtKeys, JWT_KEY_NAME } from '../../server/boot.ts';
import { rotateKey } from '../../server/db/signing-keys.ts';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';

/** The `kid` in an access token's header. */
const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid?: string }).kid;

describe.each(targets.filter((t) => t.name === 'postgres'))('signing keys shared on $name', (target) => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await buildTestApp(target, { keysInDatabase: true });
    b = await buildSecondInstance(a);
    // Instances share no disk: the file store is another piece of work; here B gets A's files.
    cpSync(join(a.config.dataDir, 'files'), join(b.config.dataDir, 'files'), { recursive: true });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const me = (t: TestApp, token: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

  async function firstAttachmentLink(t: TestApp, token: string): Promise<string> {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/attachments?builder[0][paginate]=1',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const url = res.json().data[0]?.url;
    expect(url).toMatch(/^\/api\/attachments\/\d+\/file\?token=\d+\.o\d+\.\d+\.[\w-]{43}$/);
    return url as string;
  }

  it('has no JWT secret set, and one jwt key made once in the database', async () => {
    expect(a.config.jwtSecret).toBeUndefined();
    expect(b.config.jwtSecret).toBeUndefined();
    const { rows } = await sql<{ generation: number }>`
      select generation from signing_keys where name = ${JWT_KEY_NAME}`.execute(a.db);
    expect(rows.map((r) => Number(r.generation))).toEqual([1]);
  });

  it("each accepts the other's access tokens and download links", async () => {
    const fromA = (await a.login('admin@example.com')).token;
    expect(kidOf(fromA)).toBe('1');
    expect((await me(b, fromA)).statusCode).toBe(200);
    const fromB = (await b.login('operator@example.com')).token;
    expect((await me(a, fromB)).statusCode).toBe(200);

    const link = await firstAttachmentLink(a, fromA);
    const served = await b.app.inject({ method: 'GET', url: link });
    expect(served.statusCode, served.body).toBe(200);
    expect(served.rawPayload.length).toBeGreaterThan(0);
    // The same link with one character of its signature changed opens nothing.
    const forged = link.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await b.app.inject({ method: 'GET', url: forged })).statusCode).toBe(404);
  });

  it('refuses a token naming a key generation that does not exist, even when signed with a real key', async () => {
    const token = (await a.login('admin@example.com')).token;
    const { rows } = await sql<{ key: string }>`
      select key from signing_keys where name = ${JWT_KEY_NAME} and generation = 1`.execute(a.db);
    const resign = (kid: string) => {
      const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid })).toString('base64url');
      const body = `${header}.${token.split('.')[1]}`;
      return `${body}.${createHmac('sha256', rows[0]!.key).update(body).digest('base64url')}`;
    };
    // The same claims and key under the right generation pass: only the generation differs.
    expect((await me(b, resign('1'))).statusCode).toBe(200);
    expect((await me(b, resign('7'))).statusCode).toBe(401);
    expect((await me(b, resign('x'))).statusCode).toBe(401);
  });

  it('after a rotation new tokens and links use the new key and the old ones still work', async () => {
    const before = (await a.login('admin@example.com')).token;
    const linkBefore = await firstAttachmentLink(a, before);
    expect(await rotateKey(a.db, JWT_KEY_NAME)).toBe(2);
    expect(await rotateKey(a.db, 'attachment-urls')).toBe(2);

    // An instance started after the rotation signs with generation 2 ...
    const c = await buildSecondInstance(a);
    cpSync(join(a.config.dataDir, 'files'), join(c.config.dataDir, 'files'), { recursive: true });
    try {
      const after = (await c.login('operator@example.com')).token;
      expect(kidOf(after)).toBe('2');
      const linkAfter = await firstAttachmentLink(c, after);
      expect(linkAfter).toMatch(/\.2\.[\w-]{43}$/);
      // ... which the instances started before it learn on first sight: at once, or within the second
      // an unknown generation waits before the keys are read again (so forged ones cost little),
      await expect.poll(async () => (await me(a, after)).statusCode, { timeout: 3_000 }).toBe(200);
      await expect
        .poll(async () => (await b.app.inject({ method: 'GET', url: linkAfter })).statusCode, {
          timeout: 3_000,
        })
        .toBe(200);
      // while what generation 1 signed still verifies everywhere.
      expect((await me(c, before)).statusCode).toBe(200);
      expect((await c.app.inject({ method: 'GET', url: linkBefore })).statusCode).toBe(200);

      // Retired: generation 1 removed, a fresh instance no longer accepts what it signed.
      await sql`delete from signing_keys where generation = 1`.execute(a.db);
      const d = await buildSecondInstance(a);
      try {
        expect((await me(d, before)).statusCode).toBe(401);
        expect((await me(d, after)).statusCode).toBe(200);
      } finally {
        await d.close();
      }
    } finally {
      await c.close();
    }
  });
});

describe('the embedded database keeps its secret in DATA_DIR', () => {
  const dataDir = join(tmpdir(), `sd-keys-${randomBytes(4).toString('hex')}`);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('makes the secret once and reads the same one on the next start', async () => {
    const config = { ...configFromEnv({}), dataDir };
    // The database handle is not touched on this path: there is none to give.
    const first = await (await jwtKeys(config, undefined as never, false)).current();
    expect(existsSync(join(dataDir, 'jwt-secret'))).toBe(true);
    const again = await (await jwtKeys(config, undefined as never, false)).current();
    expect(again).toEqual(first);
    expect(first.generation).toBe(0);
    const explicit = await (
      await jwtKeys({ ...config, jwtSecret: 'set' }, undefined as never, false)
    ).current();
    expect(explicit.key).toBe('set');
  });
});
