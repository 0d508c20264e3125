import { readFileSync } from 'node:fs';

/**
 * What a new password may not be, beyond the minimum length: one character repeated, one of the
 * 10,000 most common passwords, or the account's e-mail address or its name part. Each rule has its
 * own text, so the apps can say which one failed in the user's language.
 */
export const PASSWORD_REPEATED = 'The password may not be one character repeated.';
export const PASSWORD_COMMON = 'The password is one of the most common passwords. Choose another.';
export const PASSWORD_HAS_EMAIL = 'The password may not contain the e-mail address or its name part.';

/** A name part this short is too common a substring to forbid inside a password, only as all of it. */
const SHORTEST_NAME_PART = 4;

let common: Set<string> | undefined;

/**
 * SecLists' Passwords/Common-Credentials/10k-most-common.txt (MIT), one a line, lower case. Read on
 * first use: most processes never set a password.
 */
function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  );
  return common;
}

/** The first rule `password` breaks, or undefined; `email` is the account's address, when it has one. */
export function weakPasswordProblem(password: string, email?: string | null): string | undefined {
  const lower = password.toLowerCase();
  if (new Set(lower).size <= 1) return PASSWORD_REPEATED;
  if (commonPasswords().has(lower)) return PASSWORD_COMMON;
  const address = email?.trim().toLowerCase();
  if (address) {
    const name = address.split('@')[0] ?? '';
    if (lower.includes(address) || lower === name) return PASSWORD_HAS_EMAIL;
    if (name.length >= SHORTEST_NAME_PART && lower.includes(name)) return PASSWORD_HAS_EMAIL;
  }
  return undefined;
}
