import type { ServiceOverviewMessages } from '../en/serviceOverview.ts';
import type { Messages } from '../types.ts';

/** Die Serviceübersicht des Kundenportals auf Deutsch; vollständig. */
const serviceOverviewMessages: Messages<ServiceOverviewMessages> = {
  service_overview: {
    title: 'Serviceübersicht',
    intro:
      'Wie viele Tickets Ihre Organisation je Monat eröffnet und wir gelöst haben, wie schnell wir in Geschäftszeit reagiert und gelöst haben gegenüber der zugesagten SLA, und die Stunden Ihrer Verträge.',
    company: 'Firma',
    all_companies: 'Alle meine Firmen',
    period: 'Zeitraum',
    last_12_months: 'Letzte 12 Monate',
    tickets_title: 'Tickets je Monat',
    tickets_chart: 'Eröffnet und gelöst',
    tickets_caption: 'Eröffnete und gelöste Tickets je Monat und insgesamt',
    times_title: 'Reaktions- und Lösungszeiten',
    times_chart: 'Median erste Reaktions- und Lösungszeit (Stunden)',
    times_caption: 'Mediane Zeiten in Geschäftsstunden und der Anteil innerhalb der SLA-Frist, je Monat',
    targets_title: 'Unsere Zusage',
    targets_caption: 'Die SLA-Fristen je Priorität Ihrer Tickets in diesem Zeitraum',
    targets_none: 'Für Ihre Tickets galt in diesem Zeitraum keine SLA-Frist.',
    contracts_title: 'Vertragsstunden',
    contracts_chart: 'Verbrauchte und verbleibende Stunden je Vertrag (Stunden)',
    contracts_caption: 'Ihre laufenden Vertragsperioden und Prepaid-Karten',
    contracts_none: 'Sie haben keinen laufenden Vertrag mit Stunden.',
    explained:
      'Zeiten sind Stunden und Minuten Geschäftszeit. Der Median ist der mittlere Wert: Die Hälfte der Tickets dauerte höchstens so lange. Innerhalb SLA: der Anteil der Tickets mit einer SLA-Frist, die eingehalten wurde.',
    mail_optin: 'Diese Zahlen jeden Monat per E-Mail senden',
    mail_optin_help: 'Am 1. jedes Monats erhalten Sie die Zahlen des Vormonats in dieser Sprache.',
    columns: {
      month: 'Monat',
      opened: 'Eröffnet',
      solved: 'Gelöst',
      response_median: 'Erste Reaktion (Median)',
      response_met: 'Reaktion innerhalb SLA',
      resolution_median: 'Lösung (Median)',
      resolution_met: 'Lösung innerhalb SLA',
      total: 'Gesamt',
      priority: 'Priorität',
      response_time: 'Erste Reaktion innerhalb',
      resolution_time: 'Gelöst innerhalb',
      no_priority: 'Keine Priorität',
      contract: 'Vertrag',
      period: 'Zeitraum',
      hours: 'Stunden',
      used: 'Verbraucht',
      remaining: 'Verbleibend',
      prepaid: 'Prepaid-Karte',
    },
  },
};

export default serviceOverviewMessages;
