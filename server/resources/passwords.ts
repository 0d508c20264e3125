import type { Resource } from '../../common/schema/types.ts';
import { weakPasswordProblem } from '../auth/password-policy.ts';
import { ValidationError } from '../http/errors.ts';
import type { Row } from '../query/relations.ts';

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
