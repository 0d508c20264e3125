/**
 * The state of two-factor sign-in in the database (migration 0047): enrolment, the codes accepted,
 * the recovery codes, and the challenges of half-done logins. Every write that accepts something is one
 * conditional statement, so two instances (or two requests) can never both accept the same code,
 * recovery code or challenge.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { decryptPassword, encryptPassword } from '../../mail/inbound/secret.ts';
import {
  hashRecoveryCode,
  hashToken,
  newChallengeToken,
  newRecoveryCodes,
  newSecret,
  stepOfCode,
} from './codes.ts';

/** A challenge lives five minutes and takes five wrong codes; the login limits apply on top. */
export const CHALLENGE_SECONDS = 300;
export const CHALLENGE_FAILURES = 5;

export interface TwoFactorState {
  enrolled: boolean;
  enrolledAt: Date | null;
  /** The user's role requires two-factor (roles.requires_two_factor). */
  required: boolean;
  recoveryCodesLeft: number;
}

export async function twoFactorState(db: Db, tenantId: number, userId: number): Promise<TwoFactorState> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('roles as r', (j) => j.onRef('r.id', '=', 'u.role_id').onRef('r.tenant_id', '=', 'u.tenant_id'))
    .leftJoin('two_factor as t', (j) =>
      j.onRef('t.user_id', '=', 'u.id').onRef('t.tenant_id', '=', 'u.tenant_id'),
    )
    .select([
      't.enrolled_at',
      'r.requires_two_factor',
      sql<number>`(select count(*) from two_factor_recovery_codes c
        where c.user_id = u.id and c.tenant_id = u.tenant_id and c.used_at is null)`.as('left'),
    ])
    .where('u.id', '=', userId)
    .where('u.tenant_id', '=', tenantId)
    .executeTakeFirst();
  const enrolledAt = row?.enrolled_at ?? null;
  return {
    enrolled: enrolledAt !== null,
    enrolledAt,
    required: row?.requires_two_factor === true,
    recoveryCodesLeft: enrolledAt ? Number(row?.left ?? 0) : 0,
  };
}

// The secret is encrypted with the mailbox passwords' helper (tenant-bound AES-GCM); the user's id inside
// the plaintext binds it to its row, so a ciphertext copied to another user's row does not open as theirs.
async function sealSecret(db: Db, tenantId: number, userId: number, secret: string): Promise<string> {
  return encryptPassword(db, tenantId, `${userId}:${secret}`);
}

async function openSecret(db: Db, tenantId: number, userId: number, sealed: string): Promise<string | null> {
  const plain = await decryptPassword(db, tenantId, sealed).catch(() => null);
  const prefix = `${userId}:`;
  return plain?.startsWith(prefix) ? plain.slice(prefix.length) : null;
}

/** Starts (or starts over) an enrolment: a new secret, not yet confirmed. The caller checked none is on. */
export async function startEnrolment(db: Db, tenantId: number, userId: number): Promise<string> {
  const secret = newSecret();
  const sealed = await sealSecret(db, tenantId, userId, secret);
  await db
    .insertInto('two_factor')
    .values({ user_id: userId, tenant_id: tenantId, secret_encrypted: sealed })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ secret_encrypted: sealed, last_step: null, enrolled_at: null, created_at: sql`now()` })
        // An enrolment that is on is never replaced here: turning it off comes first.
        .where('two_factor.enrolled_at', 'is', null),
    )
    .execute();
  return secret;
}

/**
 * Accepts `code` for the user's confirmed (`enrolled`) or pending enrolment: true only when it is valid
 * now and for a later step than any code accepted before, which this one statement records.
 */
export async function acceptCode(
  db: Db,
  tenantId: number,
  userId: number,
  code: string,
  enrolled: boolean,
  now = Date.now(),
): Promise<boolean> {
  const row = await db
    .selectFrom('two_factor')
    .select(['secret_encrypted'])
    .where('user_id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .where('enrolled_at', enrolled ? 'is not' : 'is', null)
    .executeTakeFirst();
  if (!row) return false;
  const secret = await openSecret(db, tenantId, userId, row.secret_encrypted);
  if (!secret) return false;
  const step = stepOfCode(secret, code, now);
  if (step === null) return false;
  const taken = await db
    .updateTable('two_factor')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .where('enrolled_at', enrolled ? 'is not' : 'is', null)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/** The secret of a pending enrolment, to show again (the QR code) while it is not confirmed. */
export async function pendingSecret(db: Db, tenantId: number, userId: number): Promise<string | null> {
  const row = await db
    .selectFrom('two_factor')
    .select('secret_encrypted')
    .where('user_id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .where('enrolled_at', 'is', null)
    .executeTakeFirst();
  return row ? openSecret(db, tenantId, userId, row.secret_encrypted) : null;
}

/**
 * Confirms a pending enrolment with its first code: on, and ten new recovery codes, which are returned
 * (shown once) and stored hashed. Null when the code is not accepted.
 */
export async function confirmEnrolment(
  db: Db,
  tenantId: number,
  userId: number,
  code: string,
): Promise<string[] | null> {
  return db.transaction().execute(async (trx) => {
    if (!(await acceptCode(trx, tenantId, userId, code, false))) return null;
    await trx
      .updateTable('two_factor')
      .set({ enrolled_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('tenant_id', '=', tenantId)
      .execute();
    const codes = newRecoveryCodes();
    await trx
      .deleteFrom('two_factor_recovery_codes')
      .where('user_id', '=', userId)
      .where('tenant_id', '=', tenantId)
      .execute();
    await trx
      .insertInto('two_factor_recovery_codes')
      .values(codes.map((c) => ({ tenant_id: tenantId, user_id: userId, code_hash: hashRecoveryCode(c) })))
      .execute();
    return codes;
  });
}

/** Uses one recovery code of an enrolled user: true once per code, in one statement. */
export async function useRecoveryCode(
  db: Db,
  tenantId: number,
  userId: number,
  code: string,
): Promise<boolean> {
  const used = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .where('code_hash', '=', hashRecoveryCode(code))
    .where('used_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('two_factor')
          .select('user_id')
          .where('user_id', '=', userId)
          .where('enrolled_at', 'is not', null),
      ),
    )
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** Turns two-factor off (or drops a pending enrolment): the secret and every recovery code go. */
export async function removeTwoFactor(db: Db, tenantId: number, userId: number): Promise<boolean> {
  await db
    .deleteFrom('two_factor_recovery_codes')
    .where('user_id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .execute();
  const gone = await db
    .deleteFrom('two_factor')
    .where('user_id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return Number(gone.numDeletedRows) === 1;
}

// Challenges: the token of a password login whose second step is due.

export async function createChallenge(db: Db, tenantId: number, userId: number): Promise<string> {
  const token = newChallengeToken();
  // Old ones are dropped as new ones are made: the table holds only the last few minutes' logins.
  await db
    .deleteFrom('two_factor_challenges')
    .where('expires_at', '<', sql<Date>`now()`)
    .execute();
  await db
    .insertInto('two_factor_challenges')
    .values({
      tenant_id: tenantId,
      user_id: userId,
      token_hash: hashToken(token),
      expires_at: sql<Date>`now() + make_interval(secs => ${CHALLENGE_SECONDS})`,
    })
    .execute();
  return token;
}

/** The challenge's id and user while it is unused, unexpired and not worn out by wrong codes. */
export async function openChallenge(
  db: Db,
  tenantId: number,
  token: string,
): Promise<{ id: number; userId: number } | undefined> {
  const row = await db
    .selectFrom('two_factor_challenges')
    .select(['id', 'user_id'])
    .where('tenant_id', '=', tenantId)
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .where('failures', '<', CHALLENGE_FAILURES)
    .executeTakeFirst();
  return row && { id: row.id, userId: row.user_id };
}

export async function failChallenge(db: Db, id: number): Promise<void> {
  await db
    .updateTable('two_factor_challenges')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** Marks the challenge used: true for exactly one caller, however many present it at once. */
export async function consumeChallenge(db: Db, id: number): Promise<boolean> {
  const done = await db
    .updateTable('two_factor_challenges')
    .set({ used_at: sql`now()` })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(done.numUpdatedRows) === 1;
}
