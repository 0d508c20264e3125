import { createHash, randomBytes } from 'node:crypto';

/** An unguessable opaque token (refresh tokens, record links): 32 random bytes, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What the database keeps of an opaque token. Lookups go by this hash, so a leaked table does not
 * hold usable tokens and no comparison of the secret itself ever happens in our code.
 */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A session id for the access token's `sid` claim and `users.session_id`. */
export function randomSessionId(): string {
  return randomBytes(16).toString('base64url');
}
