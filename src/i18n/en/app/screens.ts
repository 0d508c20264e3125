/**
 * The apps' texts in English, the shared screens and inputs: pages, date badges and pickers, time,
 * uploads, tabs, common words.
 */
const screens = {
  pages: {
    not_found: 'Page not found',
    not_found_text: 'The page you are looking for does not exist or has been moved.',
    access_denied: 'Access denied',
    access_denied_text: 'You do not have permission to open this page.',
    home: 'Go to the start page',
    back: 'Go back',
    back_to_tickets: 'Back to the tickets',
    back_to_quote: 'Back to the quote',
    sign_in_to_open: 'Sign in to open this page',
    attempted_path: 'Requested page:',
    portal_not_found: 'Portal not found',
    portal_not_found_text: 'This portal does not exist. Check the address you used.',
    portal_not_found_named: 'The portal "%{name}" does not exist. Check the address you used.',
  },
  /** SPEC section 4: due date (red when past, yellow when upcoming, a check mark without a date). */
  due_date: {
    past: 'Overdue',
    upcoming: 'Upcoming',
    none: 'No due date',
  },
  /** Issue 35: an SLA due date's badge by the state the server stored (met, no target, paused, breached). */
  sla_badge: {
    met: 'Met in time',
    none: 'No SLA target',
    paused: 'Paused',
    breached: 'Breached',
  },
  /** SPEC section 4: contract end (green if set, red if past, yellow within a month). */
  contract_end: {
    green: 'Running',
    yellow: 'Ends within a month',
    red: 'Ended',
    none: 'No end date',
  },
  date_picker: {
    label: 'Deadline',
    clear: 'Clear',
    now: 'Now',
  },
  time_input: {
    hint: 'hh:mm or minutes',
    invalid: 'Enter a time as hh:mm or a number of minutes',
  },
  custom_fields: {
    required: 'required',
  },
  upload: {
    too_large: 'The file is too large: the limit is %{limit}.',
    too_many: 'At most %{count} files can be sent at once.',
  },
  tabs: {
    label: 'Tabs of the record',
    scroll_left: 'Scroll left',
    scroll_right: 'Scroll right',
    add: 'Add %{type}',
    form: 'Add %{type} here',
  },
  common: {
    loading: 'Loading…',
    download: 'Download',
    refresh: 'Refresh',
    close: 'Close',
    save: 'Save',
    cancel: 'Cancel',
    empty_value: '—',
  },
};

export type ScreenTexts = typeof screens;

export default screens;
