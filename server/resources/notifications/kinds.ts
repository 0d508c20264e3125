/**
 * The kinds of notification and the words of their e-mails. A leaf module (the schema's enum, the
 * routes and notify.ts read it). Users have no language of their own yet, so the mail is written in
 * the product's default language, Dutch, with the English below it.
 */
export const NOTIFICATION_KINDS = [
  'client_reply',
  'mention',
  'assigned',
  'deadline_soon',
  'deadline_passed',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

const SUBJECTS: Record<'nl' | 'en', Record<NotificationKind, string>> = {
  nl: {
    client_reply: 'Nieuw antwoord van de klant',
    mention: 'Je bent genoemd in een bericht',
    assigned: 'Ticket aan jou toegewezen',
    deadline_soon: 'Deadline over een uur',
    deadline_passed: 'Deadline verstreken',
  },
  en: {
    client_reply: 'New reply from the client',
    mention: 'You were mentioned in a message',
    assigned: 'Ticket assigned to you',
    deadline_soon: 'Deadline in an hour',
    deadline_passed: 'Deadline passed',
  },
};

export function notificationMailText(
  kind: NotificationKind,
  reference: string,
  description: string,
  link: string,
): { subject: string; body: string } {
  const subject = `[${reference}] ${SUBJECTS.nl[kind]}`;
  const about = description ? `${reference}: ${description}` : reference;
  const body = [
    `${SUBJECTS.nl[kind]} — ${about}`,
    `Open het ticket: ${link}`,
    '',
    `${SUBJECTS.en[kind]} — ${about}`,
    `Open the ticket: ${link}`,
  ].join('\n');
  return { subject: subject.replace(/[\r\n]+/g, ' ').slice(0, 250), body };
}
