/**
 * The words of an export: the answer to the request, the e-mail when it is done, yes and no in the
 * file. In the language the request asked for (the app sends the one it shows), else the first of the
 * browser's Accept-Language that we speak, else Dutch, the apps' default.
 */
import type { PlainMail } from '../mail/mailer.ts';
import { escapeHtml } from '../html/escape.ts';

export type ExportLocale = 'nl' | 'en' | 'de';
export const EXPORT_LOCALES: readonly ExportLocale[] = ['nl', 'en', 'de'];

interface Texts {
  queued: string;
  yes: string;
  no: string;
  doneSubject: string;
  failedSubject: string;
  greeting: (name: string) => string;
  done: (rows: number) => string;
  failed: string;
  link: string;
  login: string;
}

export const EXPORT_TEXTS: Record<ExportLocale, Texts> = {
  nl: {
    queued:
      'De export is gestart. Je krijgt een e-mail zodra het bestand klaarstaat; je vindt het ook onder Exports.',
    yes: 'Ja',
    no: 'Nee',
    doneSubject: 'Je export staat klaar',
    failedSubject: 'Je export is mislukt',
    greeting: (name) => `Beste ${name},`,
    done: (rows) =>
      `De export die je hebt aangevraagd staat klaar (${rows} ${rows === 1 ? 'regel' : 'regels'}).`,
    failed:
      'De export die je hebt aangevraagd is mislukt. Probeer het opnieuw of neem contact op met je beheerder.',
    link: 'Download het bestand als CSV of Excel via deze link:',
    login: 'Je logt daar in met je eigen account; alleen jij kunt het bestand openen.',
  },
  en: {
    queued:
      'The export has started. You will get an e-mail when the file is ready; you can also find it under Exports.',
    yes: 'Yes',
    no: 'No',
    doneSubject: 'Your export is ready',
    failedSubject: 'Your export failed',
    greeting: (name) => `Dear ${name},`,
    done: (rows) => `The export you asked for is ready (${rows} ${rows === 1 ? 'row' : 'rows'}).`,
    failed: 'The export you asked for failed. Please try again or contact your administrator.',
    link: 'Download the file as CSV or Excel with this link:',
    login: 'You sign in there with your own account; only you can open the file.',
  },
  de: {
    queued:
      'Der Export wurde gestartet. Sie erhalten eine E-Mail, sobald die Datei bereitsteht; Sie finden sie auch unter Exporte.',
    yes: 'Ja',
    no: 'Nein',
    doneSubject: 'Ihr Export ist fertig',
    failedSubject: 'Ihr Export ist fehlgeschlagen',
    greeting: (name) => `Hallo ${name},`,
    done: (rows) => `Der angeforderte Export ist fertig (${rows} ${rows === 1 ? 'Zeile' : 'Zeilen'}).`,
    failed:
      'Der angeforderte Export ist fehlgeschlagen. Bitte versuchen Sie es erneut oder wenden Sie sich an Ihren Administrator.',
    link: 'Laden Sie die Datei als CSV oder Excel über diesen Link herunter:',
    login: 'Sie melden sich dort mit Ihrem eigenen Konto an; nur Sie können die Datei öffnen.',
  },
};

export function isExportLocale(value: unknown): value is ExportLocale {
  return typeof value === 'string' && (EXPORT_LOCALES as readonly string[]).includes(value);
}

/** The body's locale, else the first language of Accept-Language we speak, else Dutch. */
export function pickLocale(requested: unknown, acceptLanguage: string | undefined): ExportLocale {
  if (isExportLocale(requested)) return requested;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const primary = part.split(';')[0]!.trim().slice(0, 2).toLowerCase();
    if (isExportLocale(primary)) return primary;
  }
  return 'nl';
}

/** The e-mail at the end of a job: done with a link to the user's exports page, or failed. */
export function exportMail(options: {
  to: string;
  name: string;
  locale: ExportLocale;
  link: string;
  rows: number | null;
  failed: boolean;
}): PlainMail {
  const t = EXPORT_TEXTS[options.locale];
  const lines = options.failed
    ? [t.greeting(options.name), '', t.failed]
    : [t.greeting(options.name), '', t.done(options.rows ?? 0), t.link, '', options.link, '', t.login];
  const href = escapeHtml(options.link);
  const body = options.failed
    ? [`<p>${escapeHtml(t.failed)}</p>`]
    : [`<p>${escapeHtml(t.done(options.rows ?? 0))}<br>${escapeHtml(t.link)}</p>`];
  return {
    to: options.to,
    subject: options.failed ? t.failedSubject : t.doneSubject,
    text: lines.join('\n') + '\n',
    html: [
      '<!doctype html>',
      `<html lang="${options.locale}"><body>`,
      `<p>${escapeHtml(t.greeting(options.name))}</p>`,
      ...body,
      ...(options.failed ? [] : [`<p><a href="${href}">${href}</a></p>`, `<p>${escapeHtml(t.login)}</p>`]),
      '</body></html>',
      '',
    ].join('\n'),
  };
}
