import { weakPasswordProblem } from '../auth/password-policy.ts';
import { minLengthMessage } from '../auth/password-reset.ts';

/**
 * What is wrong with a new operator's password, by the rules every password change follows (the
 * minimum length, then password-policy.ts), or undefined: the setup page and `npm run setup` share it.
 */
export function newPasswordProblems(
  password: string,
  email: string,
  minLength: number,
): string[] | undefined {
  if ([...password].length < minLength) return [minLengthMessage('The password', minLength)];
  const weak = weakPasswordProblem(password, email);
  return weak ? [weak] : undefined;
}
