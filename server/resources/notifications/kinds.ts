/**
 * The kinds of notification and the words of their e-mails. A leaf module (the schema's enum, the
 * routes and notify.ts read it). A mail is written in its reader's language: the language they use the
 * back office in, which the app keeps as their user config (common/language-config.ts). Without
 * one it is written in the product's default language, Dutch, with the English below it.
 */
import { parseConfigValue } from '../../auth/config-value.ts';

export const NOTIFICATION_KINDS = [
  'client_reply',
  'mention',
  'assigned',
  'deadline_soon',
  'deadline_passed',
  'sla_warning',
  'sla_breached',
  'webhook_disabled',
  'balance_low',
  'balance_empty',
  'survey_bad',
  'automation',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * The kinds an operator may also have mailed: a notification's mail opens its ticket, and a webhook
 * disabled (server/resources/webhooks/disable.ts) or a contract's balance running low
 * (server/reports/balance-alerts.ts: its clients are the ones mailed) has none, so it is told in the
 * app only.
 */
const APP_ONLY: readonly NotificationKind[] = ['webhook_disabled', 'balance_low', 'balance_empty'];
export const MAILED_KINDS = NOTIFICATION_KINDS.filter((kind) => !APP_ONLY.includes(kind));

const MAIL_LANGUAGES = ['nl', 'en', 'de'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

/** A stored config value (`user_configs.value`: JSON text, '"de"') as a mail language; else undefined. */
export function mailLanguage(stored: string | null): MailLanguage | undefined {
  const value = parseConfigValue(stored);
  return MAIL_LANGUAGES.find((l) => l === value);
}

const SUBJECTS: Record<MailLanguage, Record<NotificationKind, string>> = {
  nl: {
    client_reply: 'Nieuw antwoord van de klant',
    mention: 'Je bent genoemd in een bericht',
    assigned: 'Ticket aan jou toegewezen',
    deadline_soon: 'Deadline over een uur',
    deadline_passed: 'Deadline verstreken',
    sla_warning: 'SLA-termijn bijna verstreken',
    sla_breached: 'SLA-termijn overschreden',
    webhook_disabled: 'Webhook uitgeschakeld na mislukte afleveringen',
    balance_low: 'Uren van een contract raken op',
    balance_empty: 'Uren van een contract zijn op',
    survey_bad: 'Slechte beoordeling van de klant',
    automation: 'Melding van een automatiseringsregel',
  },
  en: {
    client_reply: 'New reply from the client',
    mention: 'You were mentioned in a message',
    assigned: 'Ticket assigned to you',
    deadline_soon: 'Deadline in an hour',
    deadline_passed: 'Deadline passed',
    sla_warning: 'SLA target almost due',
    sla_breached: 'SLA target breached',
    webhook_disabled: 'Webhook disabled after failed deliveries',
    balance_low: "A contract's hours are running low",
    balance_empty: "A contract's hours are used up",
    survey_bad: 'Bad rating from the client',
    automation: 'Notice from an automation rule',
  },
  de: {
    client_reply: 'Neue Antwort vom Kunden',
    mention: 'Sie wurden in einer Nachricht erwähnt',
    assigned: 'Ticket wurde Ihnen zugewiesen',
    deadline_soon: 'Frist in einer Stunde',
    deadline_passed: 'Frist überschritten',
    sla_warning: 'SLA-Frist läuft bald ab',
    sla_breached: 'SLA-Frist überschritten',
    webhook_disabled: 'Webhook nach fehlgeschlagenen Zustellungen deaktiviert',
    balance_low: 'Stunden eines Vertrags werden knapp',
    balance_empty: 'Stunden eines Vertrags aufgebraucht',
    survey_bad: 'Schlechte Bewertung vom Kunden',
    automation: 'Hinweis einer Automatisierungsregel',
  },
};

const OPEN_TICKET: Record<MailLanguage, string> = {
  nl: 'Open het ticket',
  en: 'Open the ticket',
  de: 'Ticket öffnen',
};

/** The mail of a notification, in `language` (its reader's), else in Dutch with the English below. */
export function notificationMailText(
  kind: NotificationKind,
  reference: string,
  description: string,
  link: string,
  language?: MailLanguage,
  /** The notification's own words (a rule's `notify` text), told in every language as written. */
  text?: string | null,
): { subject: string; body: string } {
  const about = description ? `${reference}: ${description}` : reference;
  const part = (l: MailLanguage) => [
    `${SUBJECTS[l][kind]} — ${about}`,
    ...(text ? [text] : []),
    `${OPEN_TICKET[l]}: ${link}`,
  ];
  const subject = `[${reference}] ${SUBJECTS[language ?? 'nl'][kind]}`;
  const body = (language ? part(language) : [...part('nl'), '', ...part('en')]).join('\n');
  return { subject: subject.replace(/[\r\n]+/g, ' ').slice(0, 250), body };
}
