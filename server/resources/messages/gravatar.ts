import { createHash } from 'node:crypto';

/** Gravatar's address, also named by the Content-Security-Policy (server/http/security-headers.ts). */
export const GRAVATAR_ORIGIN = 'https://www.gravatar.com';

/** The picture of an e-mail address (SPEC 1: message actors and recipients carry one). */
export function gravatarUrl(email: string | null | undefined): string | null {
  if (!email) return null;
  const hash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  // d=404: no picture answers 404, so the apps fall back to the initials.
  return `${GRAVATAR_ORIGIN}/avatar/${hash}?s=80&d=404`;
}
