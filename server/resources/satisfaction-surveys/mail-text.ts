/**
 * The words of the survey mail (issue 39, item 3), in its reader's language (the client's language
 * config; Dutch, the portal's default, without one): one link per rating, each opening the survey page
 * with that rating chosen, where one click confirms it.
 */
import type { PlainMail } from '../../mail/mailer.ts';
import { escapeHtml } from '../../html/escape.ts';
import type { MailLanguage } from '../notifications/kinds.ts';
import type { SurveyScale } from './settings.ts';

const WORDS = {
  nl: {
    subject: (ref: string) => `Hoe hebben we ticket ${ref} opgelost?`,
    greeting: (name: string) => `Beste ${name},`,
    intro: (ref: string, about: string) => `Je ticket ${ref} "${about}" is opgelost. Hoe tevreden ben je?`,
    choose: 'Klik op je beoordeling:',
    validity: (days: number) =>
      `De links zijn ${days} dagen geldig en werken één keer. Je hoeft niet in te loggen.`,
    optOut: 'Liever geen onderzoeken meer? Dat kun je aangeven op de pagina achter de link.',
    closing: 'Met vriendelijke groet,',
    three: { 3: 'Goed', 2: 'Neutraal', 1: 'Slecht' } as Record<number, string>,
  },
  en: {
    subject: (ref: string) => `How did we resolve ticket ${ref}?`,
    greeting: (name: string) => `Dear ${name},`,
    intro: (ref: string, about: string) =>
      `Your ticket ${ref} "${about}" has been resolved. How satisfied are you?`,
    choose: 'Click your rating:',
    validity: (days: number) => `The links are valid for ${days} days and work once. No login is needed.`,
    optOut: 'Rather not get these surveys? You can say so on the page the link opens.',
    closing: 'Kind regards,',
    three: { 3: 'Good', 2: 'Neutral', 1: 'Bad' } as Record<number, string>,
  },
  de: {
    subject: (ref: string) => `Wie haben wir Ticket ${ref} gelöst?`,
    greeting: (name: string) => `Hallo ${name},`,
    intro: (ref: string, about: string) =>
      `Ihr Ticket ${ref} „${about}“ wurde gelöst. Wie zufrieden sind Sie?`,
    choose: 'Klicken Sie auf Ihre Bewertung:',
    validity: (days: number) =>
      `Die Links sind ${days} Tage gültig und funktionieren einmal. Eine Anmeldung ist nicht nötig.`,
    optOut: 'Keine Umfragen mehr? Das können Sie auf der Seite hinter dem Link angeben.',
    closing: 'Mit freundlichen Grüßen',
    three: { 3: 'Gut', 2: 'Neutral', 1: 'Schlecht' } as Record<number, string>,
  },
} satisfies Record<MailLanguage, unknown>;

/** The ratings of a scale, best first, with the word each link shows. */
export function ratingChoices(
  scale: SurveyScale,
  language: MailLanguage,
): { rating: number; label: string }[] {
  const words = WORDS[language];
  return scale === 3
    ? [3, 2, 1].map((rating) => ({ rating, label: words.three[rating]! }))
    : [5, 4, 3, 2, 1].map((rating) => ({ rating, label: `${rating} / 5` }));
}

export function surveyMail(options: {
  to: string;
  name: string;
  tenantName: string;
  reference: string;
  about: string;
  scale: SurveyScale;
  language: MailLanguage;
  /** The survey page's address; `?rating=n` is added per link. */
  link: string;
  days: number;
}): PlainMail {
  const { to, name, tenantName, reference, about, scale, language, link, days } = options;
  const words = WORDS[language];
  const choices = ratingChoices(scale, language).map((c) => ({ ...c, href: `${link}?rating=${c.rating}` }));
  const intro = words.intro(reference, about.slice(0, 200));
  return {
    to,
    subject: words.subject(reference),
    text:
      [
        words.greeting(name),
        '',
        intro,
        words.choose,
        '',
        ...choices.map((c) => `${c.label}: ${c.href}`),
        '',
        words.validity(days),
        words.optOut,
        '',
        words.closing,
        tenantName,
      ].join('\n') + '\n',
    html: [
      '<!doctype html>',
      `<html lang="${language}"><body>`,
      `<p>${escapeHtml(words.greeting(name))}</p>`,
      `<p>${escapeHtml(intro)}<br>${escapeHtml(words.choose)}</p>`,
      `<p>${choices.map((c) => `<a href="${escapeHtml(c.href)}">${escapeHtml(c.label)}</a>`).join(' &nbsp; ')}</p>`,
      `<p>${escapeHtml(words.validity(days))}<br>${escapeHtml(words.optOut)}</p>`,
      `<p>${escapeHtml(words.closing)}<br>${escapeHtml(tenantName)}</p>`,
      '</body></html>',
      '',
    ].join('\n'),
  };
}
