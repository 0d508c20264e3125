import type { Db } from '../db/database.ts';
import { randomSessionId, randomToken, tokenHash } from './tokens.ts';

/**
 * Login sessions and their rotating refresh tokens.
 *
 * A login starts a session: a session id (the access token's `sid`) and a token family. Every refresh
 * marks the presented token used and issues the next one in the same family, so a token that shows up
 * a second time was copied: the whole family is revoked. An operator has one session at a time
 * (`users.session_id`); a client may have several.
 */

export interface SessionStart {
  tenantId: number;
  userId: number;
  isStaff: boolean;
}

export interface IssuedSession {
  sessionId: string;
  refreshToken: string;
}

export type RotateResult =
  | { ok: true; userId: number; sessionId: string; refreshToken: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused' | 'other-session'; userId?: number };

const DAY_MS = 86_400_000;

function refreshExpiry(days: number): Date {
  return new Date(Date.now() + days * DAY_MS);
}

export async function startSession(db: Db, who: SessionStart, refreshDays: number): Promise<IssuedSession> {
  const sessionId = randomSessionId();
  const refreshToken = randomToken();
  await db.transaction().execute(async (trx) => {
    if (who.isStaff) {
      // One session per operator: the new id makes every older access token fail its `sid` check,
      // and the older refresh tokens can no longer renew them.
      await trx
        .updateTable('users')
        .set({ session_id: sessionId })
        .where('id', '=', who.userId)
        .where('tenant_id', '=', who.tenantId)
        .execute();
      await trx
        .updateTable('refresh_tokens')
        .set({ revoked_at: new Date() })
        .where('user_id', '=', who.userId)
        .where('tenant_id', '=', who.tenantId)
        .where('revoked_at', 'is', null)
        .execute();
    }
    await trx
      .insertInto('refresh_tokens')
      .values({
        tenant_id: who.tenantId,
        user_id: who.userId,
        family: randomSessionId(),
        token_hash: tokenHash(refreshToken),
        session_id: sessionId,
        expires_at: refreshExpiry(refreshDays),
        created_at: new Date(),
      })
      .execute();
  });
  return { sessionId, refreshToken };
}

interface RefreshTokenRow {
  id: number;
  user_id: number;
  family: string;
  session_id: string;
  expires_at: Date;
  used_at: Date | null;
  revoked_at: Date | null;
}

async function findRefreshToken(
  db: Db,
  tenantId: number,
  presented: string,
): Promise<RefreshTokenRow | undefined> {
  return (await db
    .selectFrom('refresh_tokens')
    .select(['id', 'user_id', 'family', 'session_id', 'expires_at', 'used_at', 'revoked_at'])
    .where('token_hash', '=', tokenHash(presented))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst()) as RefreshTokenRow | undefined;
}

async function revokeFamily(db: Db, tenantId: number, family: string): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('family', '=', family)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Exchanges a refresh token for the next one of its family. */
export async function rotateRefreshToken(
  db: Db,
  tenantId: number,
  presented: string,
  refreshDays: number,
): Promise<RotateResult> {
  const row = await findRefreshToken(db, tenantId, presented);
  if (!row) return { ok: false, reason: 'unknown' };
  const user = await db
    .selectFrom('users')
    .select(['is_staff', 'session_id'])
    .where('id', '=', row.user_id)
    .where('tenant_id', '=', tenantId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!user) return { ok: false, reason: 'unknown' };
  if (user.is_staff && user.session_id !== row.session_id) {
    // Logged out (null) is a plain 401; a different session means a login elsewhere replaced this one.
    return { ok: false, reason: user.session_id === null ? 'revoked' : 'other-session' };
  }
  if (row.revoked_at) return { ok: false, reason: 'revoked' };
  if (row.used_at) {
    await revokeFamily(db, tenantId, row.family);
    return { ok: false, reason: 'reused', userId: Number(row.user_id) };
  }
  if (new Date(row.expires_at).getTime() <= Date.now()) return { ok: false, reason: 'expired' };

  const next = randomToken();
  return db.transaction().execute(async (trx): Promise<RotateResult> => {
    // The claim is the guard against two requests presenting the same token at once: only one of
    // them marks it used; the other is the second presentation and revokes the family.
    const claimed = await trx
      .updateTable('refresh_tokens')
      .set({ used_at: new Date() })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!claimed) {
      await revokeFamily(trx, tenantId, row.family);
      return { ok: false, reason: 'reused', userId: Number(row.user_id) };
    }
    await trx
      .insertInto('refresh_tokens')
      .values({
        tenant_id: tenantId,
        user_id: row.user_id,
        family: row.family,
        token_hash: tokenHash(next),
        session_id: row.session_id,
        expires_at: refreshExpiry(refreshDays),
        created_at: new Date(),
      })
      .execute();
    return { ok: true, userId: Number(row.user_id), sessionId: row.session_id, refreshToken: next };
  });
}

/** The session a logout ends: from the refresh cookie, else from a still verifiable access token. */
export interface SessionRef {
  tenantId: number;
  userId: number;
  sessionId: string;
  family?: string;
}

/** Looks up the session of a refresh token, whatever its state (logout accepts used and expired ones). */
export async function sessionOfRefreshToken(
  db: Db,
  tenantId: number,
  presented: string,
): Promise<SessionRef | undefined> {
  const row = await findRefreshToken(db, tenantId, presented);
  return row
    ? { tenantId, userId: Number(row.user_id), sessionId: row.session_id, family: row.family }
    : undefined;
}

export async function endSession(db: Db, session: SessionRef): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('refresh_tokens')
      .set({ revoked_at: new Date() })
      .where('tenant_id', '=', session.tenantId)
      .where('user_id', '=', session.userId)
      .where((eb) =>
        session.family
          ? eb.or([eb('session_id', '=', session.sessionId), eb('family', '=', session.family)])
          : eb('session_id', '=', session.sessionId),
      )
      .where('revoked_at', 'is', null)
      .execute();
    // Only this session's own logout clears the operator's session: an old tab logging out must not
    // end the login that replaced it.
    await trx
      .updateTable('users')
      .set({ session_id: null })
      .where('id', '=', session.userId)
      .where('tenant_id', '=', session.tenantId)
      .where('session_id', '=', session.sessionId)
      .execute();
  });
}
