/**
 * A stored user config value (`user_configs.value`, text): JSON as the API writes it (POST /api/auth/me
 * stores JSON.stringify of any value); anything else (a hand-made row) as its text. A leaf module: the
 * session's user payload and the notification mails read configs through it.
 */
export function parseConfigValue(value: string | null): unknown {
  if (value === null) return null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
