/**
 * The words of the low-balance mail (issue 39, item 2) in the client's language: which contract, how
 * much of the period is used and remains (hours:minutes, as the desk writes durations), and the link
 * that opens the contract in the portal with its upgrade form (a prepaid card is topped up there; a
 * contract with periods is not bought in the portal, so its mail asks the client to get in touch).
 */
import type { BalanceLevel } from '../../common/balance.ts';
import { formatPeriodDate } from '../../common/format.ts';
import type { MailLanguage } from '../resources/notifications/kinds.ts';
import { durationText } from './service-overview-mail-text.ts';

const TEXTS = {
  nl: {
    low: 'De uren van %{contract} raken op',
    empty: 'De uren van %{contract} zijn op',
    status: 'Periode %{period}: %{used} van %{total} uur gebruikt, nog %{remaining} uur over.',
    low_line: 'Er is minder dan %{threshold}% van de uren over.',
    empty_line: 'Alle uren van deze periode zijn gebruikt.',
    buy: 'Koop met één klik meer uren in het portaal',
    contact: 'Neem contact met ons op voor meer uren; het contract in het portaal',
    open_end: 'open einde',
  },
  en: {
    low: 'The hours of %{contract} are running low',
    empty: 'The hours of %{contract} are used up',
    status: 'Period %{period}: %{used} of %{total} hours used, %{remaining} hours remaining.',
    low_line: 'Less than %{threshold}% of the hours remain.',
    empty_line: 'All hours of this period are used.',
    buy: 'Buy more hours in one click in the portal',
    contact: 'Get in touch with us for more hours; the contract in the portal',
    open_end: 'open end',
  },
  de: {
    low: 'Die Stunden von %{contract} werden knapp',
    empty: 'Die Stunden von %{contract} sind aufgebraucht',
    status: 'Zeitraum %{period}: %{used} von %{total} Stunden verbraucht, %{remaining} Stunden verbleibend.',
    low_line: 'Es verbleiben weniger als %{threshold} % der Stunden.',
    empty_line: 'Alle Stunden dieses Zeitraums sind verbraucht.',
    buy: 'Mit einem Klick im Portal weitere Stunden kaufen',
    contact: 'Wenden Sie sich für weitere Stunden an uns; der Vertrag im Portal',
    open_end: 'offenes Ende',
  },
} satisfies Record<MailLanguage, Record<string, string>>;

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/%\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));

export interface BalanceMailFacts {
  contract_name: string;
  prepaid: boolean;
  balance_threshold: number;
  period_start: string;
  period_end: string | null;
  minutes_total: number;
  registered_time: number;
  minutes_remaining: number;
}

export function balanceMailText(
  facts: BalanceMailFacts,
  level: BalanceLevel,
  language: MailLanguage,
  link: string,
): { subject: string; body: string } {
  const t = TEXTS[language];
  const period = `${formatPeriodDate(facts.period_start)} – ${
    facts.period_end ? formatPeriodDate(facts.period_end) : t.open_end
  }`;
  const body = [
    fill(t.status, {
      period,
      used: durationText(facts.registered_time),
      total: durationText(facts.minutes_total),
      remaining: durationText(facts.minutes_remaining),
    }),
    level === 'empty' ? t.empty_line : fill(t.low_line, { threshold: facts.balance_threshold }),
    '',
    `${facts.prepaid ? t.buy : t.contact}: ${link}`,
  ].join('\n');
  // A contract's name is the operator's text: no line break may reach the mail's header.
  const subject = fill(t[level], { contract: facts.contract_name }).replace(/[\r\n]+/g, ' ');
  return { subject: subject.slice(0, 250), body };
}
