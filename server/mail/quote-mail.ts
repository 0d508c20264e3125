import type { PlainMail } from './mailer.ts';
import { escapeHtml } from '../html/escape.ts';

/**
 * The e-mail that sends a quote to its client: a link that opens the quote in the portal without a login
 * (a record token). In Dutch, the portal's default language; tenants have no language of their own yet.
 */
export function quoteMail(options: {
  to: string;
  name: string;
  tenantName: string;
  quoteName: string;
  link: string;
  days: number;
}): PlainMail {
  const { to, name, tenantName, quoteName, link, days } = options;
  const lines = {
    greeting: `Beste ${name},`,
    intro: `${tenantName} stuurt je de offerte "${quoteName}".`,
    action: 'Bekijk de offerte, download de PDF of accepteer hem met je handtekening via deze link:',
    validity: `De link is ${days} dagen geldig. Deel hem niet: wie hem heeft, kan de offerte openen.`,
    closing: 'Met vriendelijke groet,',
  };
  const href = escapeHtml(link);
  return {
    to,
    subject: `Offerte "${quoteName}" van ${tenantName}`,
    text:
      [
        lines.greeting,
        '',
        lines.intro,
        lines.action,
        '',
        link,
        '',
        lines.validity,
        '',
        lines.closing,
        tenantName,
      ].join('\n') + '\n',
    html: [
      '<!doctype html>',
      '<html lang="nl"><body>',
      `<p>${escapeHtml(lines.greeting)}</p>`,
      `<p>${escapeHtml(lines.intro)}<br>${escapeHtml(lines.action)}</p>`,
      `<p><a href="${href}">${href}</a></p>`,
      `<p>${escapeHtml(lines.validity)}</p>`,
      `<p>${escapeHtml(lines.closing)}<br>${escapeHtml(tenantName)}</p>`,
      '</body></html>',
      '',
    ].join('\n'),
  };
}
