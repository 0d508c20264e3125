import type { DashboardMessages } from '../en/dashboard.ts';
import type { DeepPartial } from '../types.ts';

/** The operator's dashboard in German; written in full, typed as partial because German falls back to English. */
const dashboardMessages: DeepPartial<DashboardMessages> = {
  dashboard: {
    title: 'Dashboard',
    intro:
      'Ihre Tickets, die nicht zugewiesenen und die jeder Linie, jetzt gezählt. Jede Zahl öffnet die Ticketliste mit diesem Filter.',
    refresh: 'Aktualisieren',
    caption: 'Tickets pro Person und Linie',
    whose: 'Wessen',
    own_team: '(Ihr Team)',
    failed: 'Das Dashboard konnte nicht geladen werden.',
    figure: '%{row}, %{count}: %{n}. Liste öffnen',
    rows: {
      mine: 'Meine Tickets',
      unassigned: 'Nicht zugewiesen',
      first_line: 'Erste Linie',
      second_line: 'Zweite Linie',
    },
    counts: {
      open: 'Offen',
      overdue: 'Überfällig',
      due_today: 'Heute fällig',
      waiting: 'Wartet auf Kunden',
      got_reply: 'Kunde hat geantwortet',
      new_today: 'Heute neu',
      sla_breached: 'SLA verletzt',
      sla_within_hour: 'SLA läuft in einer Stunde ab',
    },
  },
};

export default dashboardMessages;
