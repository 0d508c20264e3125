/** The server's password rules (server/auth/password-policy.ts) -> the keys that say them in the apps. */
const PASSWORD_RULES: Record<string, string> = {
  'The password may not be one character repeated.': 'app.auth.password_repeated',
  'The password is one of the most common passwords. Choose another.': 'app.auth.password_common',
  'The password may not contain the e-mail address or its name part.': 'app.auth.password_has_email',
};

/** The translation key of the password rule a 422's `errors` names, if it names one. */
export function passwordRuleKey(errors: unknown): string | undefined {
  const lines = (errors as { password?: unknown } | null | undefined)?.password;
  return Array.isArray(lines) ? PASSWORD_RULES[String(lines[0])] : undefined;
}
