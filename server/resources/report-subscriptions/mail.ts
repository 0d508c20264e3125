/**
 * The words of a scheduled report's mail (issue 36, item 4), in its reader's language (the back office's,
 * kept as their user config; Dutch without one): the report and the period in the subject, and in the
 * body what is attached or linked and how to stop the mails.
 */
import { DateTime } from 'luxon';
import type { MailLanguage } from '../notifications/kinds.ts';
import type { Delivery, Frequency, SubscribedReport } from '../../../common/report-subscriptions.ts';

const REPORT_NAMES: Record<MailLanguage, Record<SubscribedReport, string>> = {
  nl: { tickets: 'Servicerapport', time: 'Urenrapport' },
  en: { tickets: 'Service report', time: 'Time report' },
  de: { tickets: 'Servicebericht', time: 'Zeitbericht' },
};

const WORDS: Record<
  MailLanguage,
  {
    week: (week: number, year: number) => string;
    greeting: string;
    intro: Record<Frequency, string>;
    attached: string;
    link: string;
    manage: string;
  }
> = {
  nl: {
    week: (week, year) => `week ${week} van ${year}`,
    greeting: 'Hallo,',
    intro: { weekly: 'Hier is je wekelijkse rapport', monthly: 'Hier is je maandelijkse rapport' },
    attached: 'Het rapport zit als Excel-bestand in de bijlage: per periode en per gekozen indeling.',
    link: 'Bekijk het rapport in de backoffice:',
    manage:
      'Je krijgt deze mail omdat je je op dit rapport hebt geabonneerd. Pauzeer of verwijder het abonnement op de rapportenpagina.',
  },
  en: {
    week: (week, year) => `week ${week} of ${year}`,
    greeting: 'Hello,',
    intro: { weekly: 'Here is your weekly report', monthly: 'Here is your monthly report' },
    attached: 'The report is attached as Excel files: per period and per the breakdown you chose.',
    link: 'See the report in the back office:',
    manage:
      'You receive this mail because you subscribed to this report. Pause or delete the subscription on the reports page.',
  },
  de: {
    week: (week, year) => `KW ${week} ${year}`,
    greeting: 'Hallo,',
    intro: { weekly: 'Hier ist Ihr wöchentlicher Bericht', monthly: 'Hier ist Ihr monatlicher Bericht' },
    attached: 'Der Bericht ist als Excel-Dateien angehängt: pro Zeitraum und nach der gewählten Aufteilung.',
    link: 'Den Bericht im Backoffice ansehen:',
    manage:
      'Sie erhalten diese E-Mail, weil Sie diesen Bericht abonniert haben. Pausieren oder löschen Sie das Abonnement auf der Berichtsseite.',
  },
};

/** A period's name: the ISO week with its days, or the month. */
export function periodName(
  frequency: Frequency,
  period: { from: string; to: string },
  language: MailLanguage,
): string {
  const from = DateTime.fromISO(period.from, { locale: language });
  if (frequency === 'monthly') return from.toFormat('LLLL yyyy');
  const to = DateTime.fromISO(period.to, { locale: language });
  const days = `${from.toFormat('d LLL')} – ${to.toFormat('d LLL yyyy')}`;
  return `${WORDS[language].week(from.weekNumber, from.weekYear)} (${days})`;
}

export function reportMailText(options: {
  report: SubscribedReport;
  frequency: Frequency;
  delivery: Delivery;
  period: { from: string; to: string };
  link: string;
  language: MailLanguage;
}): { subject: string; text: string } {
  const { report, frequency, delivery, period, link, language } = options;
  const words = WORDS[language];
  const name = REPORT_NAMES[language][report];
  const when = periodName(frequency, period, language);
  const lines = [
    words.greeting,
    '',
    `${words.intro[frequency]}: ${name}, ${when}.`,
    ...(delivery === 'xlsx' ? [words.attached] : []),
    '',
    words.link,
    link,
    '',
    words.manage,
  ];
  return { subject: `${name}: ${when}`, text: lines.join('\n') + '\n' };
}
