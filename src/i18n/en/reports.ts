import columns from '../../../common/report-columns/en.ts';

/** The service report (src/custom/reports) in English. */
const reportsMessages = {
  reports: {
    title: 'Reports',
    intro:
      'Tickets created and solved, the open backlog, and how fast the desk answers and solves, in business time under the SLA that applies.',
    period: 'Period',
    from: 'From',
    to: 'To',
    group: 'Per',
    presets: {
      this_week: 'This week',
      last_week: 'Last week',
      this_month: 'This month',
      last_month: 'Last month',
      this_quarter: 'This quarter',
      last_quarter: 'Last quarter',
      this_year: 'This year',
      last_year: 'Last year',
      custom: 'Custom period',
    },
    groups: { day: 'Day', week: 'Week', month: 'Month' },
    tickets_chart: 'Tickets',
    times_chart: 'Median response and resolution time (hours)',
    caption: 'The same figures per period, and in total',
    columns,
    explained:
      'Times are hours and minutes of business time. 90% means nine in ten tickets took at most that long. In time: the share of tickets with an SLA target that met it.',
    open_list: '%{period}, %{figure}: %{n}. Open the list',
    line: 'Line',
    lines: { all: 'All operators', '1': 'First line', '2': 'Second line' },
    breakdown_title: 'Per operator, company or other key',
    breakdown_by: 'Per',
    breakdown_caption: 'The figures of the period per %{key}, and in total',
    busiest_chart: 'Tickets per %{key}: the %{n} with the most created',
    download: 'Download %{report} as %{format}',
    download_failed: 'The file could not be downloaded. Please try again.',
    breaches: {
      title: 'SLA breaches',
      none: 'No SLA target was breached in this period.',
      shown: 'One breach |||| The latest %{shown} of %{total} breaches',
      ticket: 'Ticket',
      company: 'Company',
      operator: 'Operator',
      target: 'Target',
      due: 'Due',
      ended: 'Answered or solved',
      more: 'Show more',
      targets: { first_response: 'First response', resolution: 'Resolution' },
    },
    tabs: { tickets: 'Tickets', time: 'Time logged' },
    time: {
      chart: 'Time logged, billable and not (hours)',
      caption: 'Time logged per period, and in total (hours:minutes, rounded as invoiced)',
      breakdown_caption: 'Time logged per %{key}, and in total',
      filters_note:
        'Time follows the period, the line and the company and operator filters; the other filters are for tickets only.',
    },
    contracts: {
      title: 'Contracts and prepaid cards',
      caption: 'Each contract period of the range: what the range took off it, and what it holds now',
      contract: 'Contract',
      period: 'Period',
      companies: 'Companies',
      used_in_range: 'Used in the range',
      total: 'Hours',
      registered: 'Registered',
      remaining: 'Remaining',
      used: 'Used',
      prepaid: 'Prepaid card',
      used_label: '%{contract}: %{n}% used',
    },
    failed: 'The report could not be loaded.',
  },
};

export type ReportsMessages = typeof reportsMessages;

export default reportsMessages;
