/**
 * Our Message-IDs (issue 19): every mail we send has one in the domain of MAIL_FROM, so that a reply's
 * In-Reply-To or References shows it answers a mail of ours.
 */
import { randomUUID } from 'node:crypto';

let messageIdDomain = 'service-desk.invalid';

/** The domain of the Message-IDs we make: that of MAIL_FROM (server start). */
export function useMessageIdDomain(mailFrom: string): void {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(mailFrom)?.[1];
  if (domain) messageIdDomain = domain.toLowerCase();
}

/** The domain our Message-IDs end in. */
export function ourMessageIdDomain(): string {
  return messageIdDomain;
}

/** A new Message-ID of ours: `<sd.{random}@{domain}>`. */
export function newMessageId(): string {
  return `<sd.${randomUUID()}@${messageIdDomain}>`;
}
