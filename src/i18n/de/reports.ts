import type { ReportsMessages } from '../en/reports.ts';
import type { Messages } from '../types.ts';
import columns from '../../../common/report-columns/de.ts';

/** The service report in German; complete, typed against the English file. */
const reportsMessages: Messages<ReportsMessages> = {
  reports: {
    title: 'Berichte',
    intro:
      'Erstellte und gelöste Tickets, der offene Bestand und wie schnell der Servicedesk antwortet und löst, in Geschäftszeit nach dem geltenden SLA.',
    period: 'Zeitraum',
    from: 'Von',
    to: 'Bis einschließlich',
    group: 'Pro',
    presets: {
      this_week: 'Diese Woche',
      last_week: 'Letzte Woche',
      this_month: 'Dieser Monat',
      last_month: 'Letzter Monat',
      this_quarter: 'Dieses Quartal',
      last_quarter: 'Letztes Quartal',
      this_year: 'Dieses Jahr',
      last_year: 'Letztes Jahr',
      custom: 'Eigener Zeitraum',
    },
    groups: { day: 'Tag', week: 'Woche', month: 'Monat' },
    tickets_chart: 'Tickets',
    times_chart: 'Median der Antwort- und Lösungszeit (Stunden)',
    caption: 'Dieselben Zahlen pro Zeitraum und insgesamt',
    columns,
    explained:
      'Zeiten sind Stunden und Minuten Geschäftszeit. 90 % heißt: neun von zehn Tickets dauerten höchstens so lange. Rechtzeitig: der Anteil der Tickets mit SLA-Frist, die sie einhielten.',
    open_list: '%{period}, %{figure}: %{n}. Liste öffnen',
    line: 'Linie',
    lines: { all: 'Alle Bearbeiter', '1': 'Erste Linie', '2': 'Zweite Linie' },
    breakdown_title: 'Pro Bearbeiter, Firma oder anderem Merkmal',
    breakdown_by: 'Pro',
    breakdown_caption: 'Die Zahlen des Zeitraums pro %{key} und insgesamt',
    busiest_chart: 'Tickets pro %{key}: die %{n} mit den meisten erstellten',
    download: '%{report} als %{format} herunterladen',
    download_failed: 'Die Datei konnte nicht heruntergeladen werden. Bitte versuchen Sie es erneut.',
    breaches: {
      title: 'SLA-Überschreitungen',
      none: 'In diesem Zeitraum wurde keine SLA-Frist überschritten.',
      shown: 'Eine Überschreitung |||| Die letzten %{shown} von %{total} Überschreitungen',
      ticket: 'Ticket',
      company: 'Firma',
      operator: 'Bearbeiter',
      target: 'Frist',
      due: 'Fällig',
      ended: 'Beantwortet oder gelöst',
      more: 'Mehr anzeigen',
      targets: { first_response: 'Erste Antwort', resolution: 'Lösung' },
    },
    tabs: { tickets: 'Tickets', time: 'Aufgewendete Zeit' },
    time: {
      chart: 'Aufgewendete Zeit, abrechenbar und nicht (Stunden)',
      caption: 'Aufgewendete Zeit pro Zeitraum und insgesamt (Stunden:Minuten, gerundet wie abgerechnet)',
      breakdown_caption: 'Aufgewendete Zeit pro %{key} und insgesamt',
      filters_note:
        'Die Zeit folgt dem Zeitraum, der Linie und den Filtern nach Firma und Bearbeiter; die anderen Filter gelten nur für Tickets.',
    },
    contracts: {
      title: 'Verträge und Stundenkontingente',
      caption:
        'Jede Vertragsperiode des Zeitraums: was der Zeitraum davon verbrauchte und was sie jetzt enthält',
      contract: 'Vertrag',
      period: 'Periode',
      companies: 'Firmen',
      used_in_range: 'Im Zeitraum verbraucht',
      total: 'Stunden',
      registered: 'Erfasst',
      remaining: 'Verbleibend',
      used: 'Verbraucht',
      prepaid: 'Stundenkontingent',
      used_label: '%{contract}: %{n} % verbraucht',
    },
    failed: 'Der Bericht konnte nicht geladen werden.',
  },
};

export default reportsMessages;
