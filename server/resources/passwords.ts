import type { Resource } from '../../common/schema/types.ts';
import { weakPasswordProblem } from '../auth/password-policy.ts';
import { ValidationError } from '../http/errors.ts';
import type { Row } from '../query/relations.ts';
import type { PasswordHashing } from '../auth/password-hashing.ts';

/**
 * Every password field a write sets obeys the password policy (server/auth/password-policy.ts). The
 * address it is checked against is the record's e-mail field: the one sent, else the stored one.
 */
export function checkPasswords(resource: Resource, data: Record<string, unknown>, current?: Row): void {
  const emailField = Object.values(resource.fields).find((f) => f.format === 'email');
  const email = emailField ? (data[emailField.name] ?? current?.[emailField.name]) : undefined;
  const errors: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(data)) {
    if (resource.fields[name]?.format !== 'password' || typeof value !== 'string') continue;
    const problem = weakPasswordProblem(value, typeof email === 'string' ? email : undefined);
    if (problem) errors[name] = [problem];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/**
 * The write's data with each password replaced by its argon2 hash, made through the app's hashing queue
 * (server/auth/password-hashing.ts) in the trusted lane (the caller is signed in), before any
 * transaction opens: no connection is held while the hash waits for a slot. A full lane rejects with
 * HashingBusy (503, Retry-After).
 */
export async function hashPasswords(
  hashing: PasswordHashing | undefined,
  resource: Resource,
  data: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const out = { ...data };
  for (const [name, value] of Object.entries(data)) {
    if (resource.fields[name]?.format !== 'password' || typeof value !== 'string') continue;
    if (!hashing) throw new Error(`${resource.name}.${name}: this caller has no password hashing`);
    out[name] = await hashing.hash(value, 'trusted');
  }
  return out;
}
