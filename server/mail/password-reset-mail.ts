import type { PlainMail } from './mailer.ts';
import { escapeHtml } from '../html/escape.ts';

export type MailLocale = 'nl' | 'en' | 'de';
export const MAIL_LOCALES: readonly MailLocale[] = ['nl', 'en', 'de'];

interface Text {
  subject: string;
  greeting: (name: string) => string;
  intro: string;
  action: string;
  validity: (minutes: number) => string;
  ignore: string;
}

const TEXTS: Record<MailLocale, Text> = {
  nl: {
    subject: 'Wachtwoord opnieuw instellen',
    greeting: (name) => `Beste ${name},`,
    intro: 'We hebben een verzoek ontvangen om het wachtwoord van je account opnieuw in te stellen.',
    action: 'Kies een nieuw wachtwoord via deze link:',
    validity: (m) => `De link is ${m} minuten geldig en werkt één keer.`,
    ignore: 'Heb je dit niet aangevraagd? Dan hoef je niets te doen: je wachtwoord blijft ongewijzigd.',
  },
  en: {
    subject: 'Reset your password',
    greeting: (name) => `Dear ${name},`,
    intro: 'We received a request to reset the password of your account.',
    action: 'Choose a new password with this link:',
    validity: (m) => `The link is valid for ${m} minutes and works once.`,
    ignore: 'Did you not ask for this? Then there is nothing to do: your password stays as it is.',
  },
  de: {
    subject: 'Passwort zurücksetzen',
    greeting: (name) => `Hallo ${name},`,
    intro: 'Wir haben eine Anfrage erhalten, das Passwort Ihres Kontos zurückzusetzen.',
    action: 'Wählen Sie über diesen Link ein neues Passwort:',
    validity: (m) => `Der Link ist ${m} Minuten gültig und funktioniert einmal.`,
    ignore: 'Haben Sie das nicht angefordert? Dann müssen Sie nichts tun: Ihr Passwort bleibt unverändert.',
  },
};

function textPart(t: Text, name: string, link: string, minutes: number): string {
  return [t.greeting(name), '', t.intro, t.action, '', link, '', t.validity(minutes), t.ignore].join('\n');
}

function htmlPart(t: Text, name: string, link: string, minutes: number): string {
  const href = escapeHtml(link);
  return [
    `<p>${escapeHtml(t.greeting(name))}</p>`,
    `<p>${escapeHtml(t.intro)}<br>${escapeHtml(t.action)}</p>`,
    `<p><a href="${href}">${href}</a></p>`,
    `<p>${escapeHtml(t.validity(minutes))}<br>${escapeHtml(t.ignore)}</p>`,
  ].join('\n');
}

/**
 * The password reset e-mail: in the requested language, or (none requested) in Dutch, the portal's
 * default language, with the English text below it.
 */
export function passwordResetMail(options: {
  to: string;
  name: string;
  link: string;
  minutes: number;
  locale?: MailLocale;
}): PlainMail {
  const { to, name, link, minutes, locale } = options;
  const parts = (locale ? [locale] : (['nl', 'en'] as const)).map((l) => TEXTS[l]);
  return {
    to,
    subject: parts.map((t) => t.subject).join(' / '),
    text: parts.map((t) => textPart(t, name, link, minutes)).join('\n\n-----\n\n') + '\n',
    html: `<!doctype html>\n<html><body>\n${parts.map((t) => htmlPart(t, name, link, minutes)).join('\n<hr>\n')}\n</body></html>\n`,
  };
}
