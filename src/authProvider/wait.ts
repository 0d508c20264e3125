/**
 * A 429's wait as the server words it ("… Please try again in 30 seconds." or "… in 15 minutes.",
 * server/auth/rate-limit.ts `waitText`): the key suffix and count the apps translate it with.
 */
export function retryWait(message: string | undefined): { suffix: '' | '_seconds'; smart_count: number } {
  const match = /(\d+) (second|minute)/.exec(message ?? '');
  if (match?.[2] === 'second') return { suffix: '_seconds', smart_count: Number(match[1]) };
  return { suffix: '', smart_count: Number(match?.[1] ?? 1) };
}

/** The translated 429 text: `<key>` counts minutes, `<key>_seconds` seconds. */
export function tooManyText(
  key: string,
  message: string | undefined,
  translate: (key: string, options?: object) => string,
): string {
  const { suffix, smart_count } = retryWait(message);
  return translate(`${key}${suffix}`, { smart_count });
}
