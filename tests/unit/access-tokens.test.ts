/**
 * Issue 40, item 3: an access token verified once answers from memory, but never longer than the full
 * verification would still pass it: not past its expiry, not once its key generation is retired or
 * replaced, and a changed token is a different token. How many are kept is bounded. (That a logged-out
 * or replaced session is refused with a token still in this cache: tests/api/auth-sessions.test.ts.)
 */
import Fastify from 'fastify';
import fastifyJwt, { type JWT } from '@fastify/jwt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccessTokens } from '../../server/auth/access-tokens.ts';
import type { KeyRing } from '../../server/db/signing-keys.ts';

/** A ring whose generations a test can retire or replace, counting the signature checks it allows. */
function ring(initial: Record<number, string>) {
  const keys = new Map(Object.entries(initial).map(([g, k]) => [Number(g), k]));
  const newest = () => Math.max(...keys.keys());
  const keyRing: KeyRing = {
    current: async () => ({ generation: newest(), key: keys.get(newest())! }),
    find: async (generation) => keys.get(generation),
  };
  return { keyRing, keys };
}

async function jwtWith(secret: string): Promise<JWT> {
  const app = Fastify();
  await app.register(fastifyJwt, {
    secret,
    sign: { algorithm: 'HS256', expiresIn: 60 },
    verify: { algorithms: ['HS256'] },
  });
  await app.ready();
  return app.jwt;
}

describe('access token verification kept within the token’s lifetime', () => {
  const claims = { userId: 7, tenantId: 3, sessionId: 'session-a' };
  let jwt: JWT;
  let verifies: ReturnType<typeof vi.spyOn>;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-04T12:00:00Z'));
    jwt = await jwtWith('first-key');
    verifies = vi.spyOn(jwt, 'verify');
  });
  afterEach(() => vi.useRealTimers());

  it('verifies a token once, then answers the same claims from memory', async () => {
    const { keyRing } = ring({ 1: 'first-key' });
    const tokens = new AccessTokens(jwt, 60, keyRing, 'first-key');
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    expect(verifies).toHaveBeenCalledTimes(1);
  });

  it('refuses it from its expiry on, as the verifier does', async () => {
    const { keyRing } = ring({ 1: 'first-key' });
    const tokens = new AccessTokens(jwt, 60, keyRing, 'first-key');
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    vi.setSystemTime(Date.now() + 59_000);
    expect(await tokens.verify(token)).toEqual(claims);
    // fast-jwt still accepts it at exp itself; one millisecond after, neither does.
    vi.setSystemTime(Date.now() + 1_001);
    expect(await tokens.verify(token)).toBeUndefined();
    vi.setSystemTime(Date.now() + 60_000);
    expect(await tokens.verify(token)).toBeUndefined();
  });

  it('refuses it once its key generation is retired, or holds another key', async () => {
    const { keyRing, keys } = ring({ 1: 'first-key' });
    const tokens = new AccessTokens(jwt, 60, keyRing, 'first-key');
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    keys.delete(1);
    expect(await tokens.verify(token)).toBeUndefined();
    keys.set(1, 'another-key');
    expect(await tokens.verify(token)).toBeUndefined();
    // The same key back: verified anew, and accepted again.
    keys.set(1, 'first-key');
    expect(await tokens.verify(token)).toEqual(claims);
  });

  it('a changed token is another token: verified, and refused', async () => {
    const { keyRing } = ring({ 1: 'first-key' });
    const tokens = new AccessTokens(jwt, 60, keyRing, 'first-key');
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: '8' }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${forged}.${signature}`)).toBeUndefined();
    expect(await tokens.verify(`${token}x`)).toBeUndefined();
  });

  it('keeps at most the tokens it is given room for, dropping the least recently used', async () => {
    const { keyRing } = ring({ 1: 'first-key' });
    const tokens = new AccessTokens(jwt, 60, keyRing, 'first-key', 2);
    const [a, b, c] = await Promise.all(
      ['a', 'b', 'c'].map((sessionId) => tokens.sign({ ...claims, sessionId })),
    );
    await tokens.verify(a!);
    await tokens.verify(b!);
    await tokens.verify(a!); // b is now the least recently used
    await tokens.verify(c!); // and makes room for c
    expect(verifies).toHaveBeenCalledTimes(3);
    await tokens.verify(a!);
    await tokens.verify(c!);
    expect(verifies).toHaveBeenCalledTimes(3);
    await tokens.verify(b!);
    expect(verifies).toHaveBeenCalledTimes(4);
  });
});
