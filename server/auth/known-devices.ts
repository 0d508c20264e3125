/**
 * Known devices (OWASP's "device cookies"): a browser that signed in to an account with its password
 * gets a signed cookie naming that account. A login from it is told apart from the crowd: during a
 * flood of guesses it is not held to the tenant's budget of failed logins nor to the account's
 * slow-down, and its password is checked in the trusted lane of the hashing queue; only its own
 * failures count against it (shared-attempts.ts, 5 in 15 minutes). A guesser has no such cookie: it
 * is only given after the right password.
 *
 * The cookie: `<generation>.<tenant>.<account>.<nonce>.<expires>.<mac>`, where account is a hash of the
 * e-mail address (the cookie does not carry it), nonce names the device in the limiter's counts, and
 * mac is an HMAC-SHA256 over the rest with a key derived from the access tokens' signing keys (the same
 * generation scheme: a rotated key's cookies stay valid until they expire). HttpOnly, SameSite=Strict,
 * sent only to the login call; one account per browser (the last to sign in there).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyRing } from '../db/signing-keys.ts';

export const KNOWN_DEVICE_COOKIE = 'known_device';
const COOKIE_PATH = '/api/auth/login';
export const KNOWN_DEVICE_DAYS = 180;
const DAY_MS = 86_400_000;

/** Generation, tenant, account hash, nonce, expiry (ms), mac: fixed alphabets and lengths, nothing else. */
const SHAPE =
  /^(\d{1,6})\.(\d{1,12})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{22})\.(\d{13})\.([A-Za-z0-9_-]{43})$/;

function accountHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('base64url').slice(0, 22);
}

/** A key of its own for this use, so a cookie's MAC can never be taken for another signature of the key. */
function mac(key: string, payload: string): string {
  const derived = createHmac('sha256', key).update('known-device-cookie/v1').digest();
  return createHmac('sha256', derived).update(payload, 'utf8').digest('base64url');
}

export class KnownDevices {
  constructor(
    private readonly keys: KeyRing,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The device's nonce when the request carries a valid, unexpired cookie for this tenant and e-mail. */
  async recognise(request: FastifyRequest, tenantId: number, email: string): Promise<string | undefined> {
    const value = request.cookies[KNOWN_DEVICE_COOKIE];
    const parts = value ? SHAPE.exec(value) : null;
    if (!parts) return undefined;
    const [, generation, tenant, account, nonce, expires, signature] = parts as unknown as string[];
    if (Number(tenant) !== tenantId || account !== accountHash(email)) return undefined;
    if (Number(expires) <= this.clock()) return undefined;
    const key = await this.keys.find(Number(generation));
    if (key === undefined) return undefined;
    const expected = Buffer.from(mac(key, value!.slice(0, value!.lastIndexOf('.'))));
    const given = Buffer.from(signature!);
    return expected.length === given.length && timingSafeEqual(expected, given) ? nonce : undefined;
  }

  /** Gives the browser a cookie for this account: the same device nonce when it had one, else a new one. */
  async remember(
    request: FastifyRequest,
    reply: FastifyReply,
    tenantId: number,
    email: string,
    nonce = randomBytes(16).toString('base64url'),
  ): Promise<void> {
    const { generation, key } = await this.keys.current();
    const expires = this.clock() + KNOWN_DEVICE_DAYS * DAY_MS;
    const payload = `${generation}.${tenantId}.${accountHash(email)}.${nonce}.${expires}`;
    reply.setCookie(KNOWN_DEVICE_COOKIE, `${payload}.${mac(key, payload)}`, {
      httpOnly: true,
      sameSite: 'strict',
      path: COOKIE_PATH,
      secure: request.protocol === 'https',
      maxAge: KNOWN_DEVICE_DAYS * 86_400,
    });
  }
}
