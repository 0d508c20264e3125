/**
 * The pure half of two-factor sign-in (issue 38, item 1): RFC 6238 codes by the `otpauth` library
 * (SHA-1, 6 digits, 30-second steps: what every authenticator app reads from a QR code), the QR code
 * drawn on the server as an SVG data URL (no QR code library in the browser bundle), and the recovery
 * codes. No database here: store.ts keeps the state.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

export const PERIOD_SECONDS = 30;
/** Codes of the step before and after the current one are taken too: clocks drift, typing takes time. */
export const WINDOW_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;

/** A new random secret (160 bits, as RFC 4226 recommends), in base32 as apps and people type it. */
export function newSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, label = 'user', issuer = 'Service desk'): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** The `otpauth://` address an authenticator app reads: the desk's name, the user's address, the secret. */
export function otpauthUrl(secret: string, email: string, issuer: string): string {
  return totpOf(secret, email, issuer).toString();
}

/** That address as a QR code: an SVG data URL, ready for an <img>. */
export async function qrDataUrl(url: string): Promise<string> {
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/** Six digits, spaces allowed (apps show `123 456`); anything else is no code. Linear: one class, bounded. */
const CODE = /^\d{6}$/;

/**
 * The time step `code` is valid for at `now` (within ±WINDOW_STEPS), or null. The step, not a yes: the
 * caller accepts a code only by raising the user's last step to it (store.ts), so a code counts once.
 */
export function stepOfCode(secret: string, code: string, now = Date.now()): number | null {
  const token = code.replace(/\s/g, '');
  if (!CODE.test(token)) return null;
  const totp = totpOf(secret);
  const delta = totp.validate({ token, timestamp: now, window: WINDOW_STEPS });
  return delta === null ? null : totp.counter({ timestamp: now }) + delta;
}

// Recovery codes: 10 characters of a 31-letter alphabet without look-alikes (49 bits), shown as xxxxx-xxxxx.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A recovery code as typed (any case, with or without the dash or spaces), in the one form that is hashed. */
export function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** SHA-256 suffices: the codes are random (no dictionary to try), and every guess passes the login limits. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');
}

/** A challenge token: 32 random bytes, handed out once; only its hash is stored. */
export function newChallengeToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
