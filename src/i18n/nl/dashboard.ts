import type { DashboardMessages } from '../en/dashboard.ts';
import type { Messages } from '../types.ts';

/** The operator's dashboard in Dutch (the default language); complete, typed against the English file. */
const dashboardMessages: Messages<DashboardMessages> = {
  dashboard: {
    title: 'Dashboard',
    intro:
      'Je eigen tickets, de niet-toegewezen tickets en die van elke lijn, nu geteld. Elk getal opent de ticketlijst met dat filter.',
    refresh: 'Vernieuwen',
    caption: 'Tickets per persoon en lijn',
    whose: 'Van wie',
    own_team: '(jouw team)',
    failed: 'Het dashboard kon niet worden geladen.',
    figure: '%{row}, %{count}: %{n}. Open de lijst',
    rows: {
      mine: 'Mijn tickets',
      unassigned: 'Niet toegewezen',
      first_line: 'Eerste lijn',
      second_line: 'Tweede lijn',
    },
    counts: {
      open: 'Open',
      overdue: 'Over de deadline',
      due_today: 'Deadline vandaag',
      waiting: 'Wacht op klant',
      got_reply: 'Klant heeft gereageerd',
      new_today: 'Nieuw vandaag',
      sla_breached: 'SLA overschreden',
      sla_within_hour: 'SLA verloopt binnen een uur',
    },
  },
};

export default dashboardMessages;
