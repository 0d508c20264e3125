/**
 * The service report's column names in English: the page's table (src/i18n/en/reports.ts) and the
 * exported files' headers (server/reports/export.ts) say the same. One file per language, so each
 * language's chunk of the app holds its own.
 */
export default {
  period: 'Period',
  period_end: 'Until',
  created: 'Created',
  solved: 'Solved',
  reopened: 'Reopened',
  backlog: 'Open at the end',
  responded: 'Answered',
  response_median: 'First response (median)',
  response_p90: 'First response (90%)',
  response_met: 'First response in time',
  response_met_count: 'First response met',
  response_breached: 'First response breached',
  resolution_median: 'Resolution (median)',
  resolution_p90: 'Resolution (90%)',
  resolution_met: 'Resolution in time',
  resolution_met_count: 'Resolution met',
  resolution_breached: 'Resolution breached',
  time_minutes: 'Time spent',
  time_rounded: 'Time rounded',
  time_billable: 'Billable',
  time_non_billable: 'Not billable',
  time_contract: 'On contracts',
  time_registrations: 'Registrations',
  time_company_id: 'Company',
  time_operator_id: 'Operator',
  time_contract_id: 'Contract',
  time_activity_id: 'Activity',
  total: 'Total',
  minutes: 'minutes',
  none: '(none)',
  sheet: 'Report',
};
