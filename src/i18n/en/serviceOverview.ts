/** The client portal's service overview (src/custom/service-overview) in English. */
const serviceOverviewMessages = {
  service_overview: {
    title: 'Service overview',
    intro:
      'How many tickets your organisation opened and we solved each month, how fast we answered and solved them in business time against the SLA we promised, and the hours of your contracts.',
    company: 'Company',
    all_companies: 'All my companies',
    period: 'Period',
    last_12_months: 'Last 12 months',
    tickets_title: 'Tickets per month',
    tickets_chart: 'Opened and solved',
    tickets_caption: 'Tickets opened and solved per month, and in total',
    times_title: 'Response and resolution times',
    times_chart: 'Median first response and resolution time (hours)',
    times_caption: 'Median times in business hours and the share within the SLA target, per month',
    targets_title: 'Our promise',
    targets_caption: 'The SLA targets per priority of your tickets in this period',
    targets_none: 'No SLA targets applied to your tickets in this period.',
    contracts_title: 'Contract hours',
    contracts_chart: 'Hours used and remaining per contract (hours)',
    contracts_caption: 'Your current contract periods and prepaid cards',
    contracts_none: 'You have no contract with hours running.',
    explained:
      'Times are hours and minutes of business time. The median is the middle value: half of the tickets took at most that long. Within SLA: the share of the tickets with an SLA target that met it.',
    mail_optin: 'E-mail me these figures every month',
    mail_optin_help: 'On the 1st of each month you receive last month\u2019s figures in this language.',
    columns: {
      month: 'Month',
      opened: 'Opened',
      solved: 'Solved',
      response_median: 'First response (median)',
      response_met: 'Response within SLA',
      resolution_median: 'Resolution (median)',
      resolution_met: 'Resolution within SLA',
      total: 'Total',
      priority: 'Priority',
      response_time: 'First response within',
      resolution_time: 'Resolved within',
      no_priority: 'No priority',
      contract: 'Contract',
      period: 'Period',
      hours: 'Hours',
      used: 'Used',
      remaining: 'Remaining',
      prepaid: 'Prepaid card',
    },
  },
};

export type ServiceOverviewMessages = typeof serviceOverviewMessages;

export default serviceOverviewMessages;
