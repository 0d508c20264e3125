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
  total: 'Total',
  minutes: 'minutes',
  none: '(none)',
  sheet: 'Report',
};
