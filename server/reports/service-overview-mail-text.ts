/**
 * The words of the monthly service overview mail (issue 36, item 3) in the client's language: the
 * month's tickets, times and SLA outcomes, the promised targets and the contracts' hours, as the
 * portal's page shows them (business time as hours:minutes, the desk's way of writing durations).
 */
import { DateTime } from 'luxon';
import { metPercent } from '../../common/reports.ts';
import type { ServiceOverview } from '../../common/service-overview.ts';
import type { MailLanguage } from '../resources/notifications/kinds.ts';

const TEXTS = {
  nl: {
    subject: 'Serviceoverzicht %{month}',
    intro: 'Het serviceoverzicht van %{month} voor %{companies}.',
    opened: 'Tickets geopend',
    solved: 'Tickets opgelost',
    response_median: 'Mediaan eerste reactie (werktijd)',
    resolution_median: 'Mediaan oplostijd (werktijd)',
    response_met: 'Eerste reactie binnen de SLA-termijn',
    resolution_met: 'Oplossing binnen de SLA-termijn',
    of: '%{met} van %{all} (%{percent}%)',
    targets: 'Beloofde termijnen per prioriteit (reactie / oplossing)',
    no_priority: 'Zonder prioriteit',
    contracts: 'Contracten en strippenkaarten (uren gebruikt / resterend)',
    prepaid: 'strippenkaart',
    none: 'geen',
    link: 'Het hele overzicht in het portaal',
    stop: 'U ontvangt dit overzicht omdat u het in het portaal hebt aangezet; daar zet u het ook weer uit.',
  },
  en: {
    subject: 'Service overview %{month}',
    intro: 'The service overview of %{month} for %{companies}.',
    opened: 'Tickets opened',
    solved: 'Tickets solved',
    response_median: 'Median first response (business time)',
    resolution_median: 'Median resolution time (business time)',
    response_met: 'First response within the SLA target',
    resolution_met: 'Resolution within the SLA target',
    of: '%{met} of %{all} (%{percent}%)',
    targets: 'Promised targets per priority (response / resolution)',
    no_priority: 'No priority',
    contracts: 'Contracts and prepaid cards (hours used / remaining)',
    prepaid: 'prepaid card',
    none: 'none',
    link: 'The whole overview in the portal',
    stop: 'You receive this overview because you turned it on in the portal, where you can turn it off again.',
  },
  de: {
    subject: 'Serviceübersicht %{month}',
    intro: 'Die Serviceübersicht für %{month} für %{companies}.',
    opened: 'Tickets eröffnet',
    solved: 'Tickets gelöst',
    response_median: 'Median erste Reaktion (Geschäftszeit)',
    resolution_median: 'Median Lösungszeit (Geschäftszeit)',
    response_met: 'Erste Reaktion innerhalb der SLA-Frist',
    resolution_met: 'Lösung innerhalb der SLA-Frist',
    of: '%{met} von %{all} (%{percent} %)',
    targets: 'Zugesagte Fristen je Priorität (Reaktion / Lösung)',
    no_priority: 'Ohne Priorität',
    contracts: 'Verträge und Prepaid-Karten (Stunden verbraucht / verbleibend)',
    prepaid: 'Prepaid-Karte',
    none: 'keine',
    link: 'Die ganze Übersicht im Portal',
    stop: 'Sie erhalten diese Übersicht, weil Sie sie im Portal eingeschaltet haben; dort können Sie sie auch wieder ausschalten.',
  },
} satisfies Record<MailLanguage, Record<string, string>>;

const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/%\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ''));

/** Minutes as hours:minutes (`1:05`), '–' for none; negative for hours used beyond a period's. */
export function durationText(minutes: number | null): string {
  if (minutes === null) return '–';
  const whole = Math.abs(Math.round(minutes));
  return `${minutes < 0 && whole > 0 ? '-' : ''}${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

export function overviewMailText(
  overview: Omit<ServiceOverview, 'company_id'>,
  language: MailLanguage,
  link: string | undefined,
): { subject: string; body: string } {
  const t = TEXTS[language];
  const month = DateTime.fromISO(overview.from).setLocale(language).toFormat('LLLL yyyy');
  const f = overview.total;
  const share = (met: number | null, breached: number | null) => {
    if (met === null || breached === null) return null;
    const percent = metPercent(met, breached);
    return percent === null ? t.none : fill(t.of, { met, all: met + breached, percent });
  };
  const lines = [
    fill(t.intro, { month, companies: overview.companies.map((c) => c.name).join(', ') }),
    '',
    `${t.opened}: ${f.opened}`,
    `${t.solved}: ${f.solved}`,
    `${t.response_median}: ${durationText(f.response_median)}`,
    `${t.resolution_median}: ${durationText(f.resolution_median)}`,
  ];
  const response = share(f.response_met, f.response_breached);
  const resolution = share(f.resolution_met, f.resolution_breached);
  if (response !== null) lines.push(`${t.response_met}: ${response}`);
  if (resolution !== null) lines.push(`${t.resolution_met}: ${resolution}`);
  if (overview.targets?.length) {
    lines.push('', `${t.targets}:`);
    for (const target of overview.targets)
      lines.push(
        `- ${target.priority ?? t.no_priority}: ${durationText(target.response_time)} / ${durationText(target.resolution_time)}`,
      );
  }
  if (overview.contracts.length) {
    lines.push('', `${t.contracts}:`);
    for (const c of overview.contracts) {
      const period = c.prepaid ? t.prepaid : `${c.period_start} – ${c.period_end ?? '…'}`;
      lines.push(
        `- ${c.contract_name} (${period}): ${durationText(c.registered_time)} / ${durationText(c.minutes_remaining)}`,
      );
    }
  }
  if (link) lines.push('', `${t.link}: ${link}`);
  lines.push('', t.stop);
  return { subject: fill(t.subject, { month }), body: lines.join('\n') };
}
