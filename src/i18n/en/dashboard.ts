/** The operator's dashboard (src/custom/dashboard) in English. */
const dashboardMessages = {
  dashboard: {
    title: 'Dashboard',
    intro:
      "Your tickets, the unassigned ones and each line's, counted now. Each figure opens the ticket list with that filter.",
    refresh: 'Refresh',
    caption: 'Tickets per person and line',
    whose: 'Whose',
    own_team: '(your team)',
    failed: 'The dashboard could not be loaded.',
    figure: '%{row}, %{count}: %{n}. Open the list',
    rows: {
      mine: 'My tickets',
      unassigned: 'Unassigned',
      first_line: 'First line',
      second_line: 'Second line',
    },
    counts: {
      open: 'Open',
      overdue: 'Overdue',
      due_today: 'Due today',
      waiting: 'Waiting for the client',
      got_reply: 'Client replied',
      new_today: 'New today',
      sla_breached: 'SLA breached',
      sla_within_hour: 'SLA due within an hour',
    },
  },
};

export type DashboardMessages = typeof dashboardMessages;

export default dashboardMessages;
