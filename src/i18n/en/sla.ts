/**
 * A ticket's SLA clock in its back-office detail and its promise in the portal (issue 35, item 4;
 * src/resources/tickets/sla/), in English.
 */
const slaMessages = {
  sla: {
    title: 'SLA',
    failed: "This ticket's SLA could not be loaded.",
    none: 'No SLA applies to this ticket.',
    source: {
      ticket: 'set on this ticket',
      contract: "from the company's contract",
      company: 'from the company',
      tenant: 'the default SLA',
    },
    targets: {
      first_response: 'First response',
      next_response: 'Next response',
      resolution: 'Resolution',
    },
    target: 'Target: %{time}',
    no_target: 'No target',
    due: 'Due %{time}',
    ended: 'Ended %{time}',
    left: '%{time} left',
    overdue: 'overdue by %{time}',
    state: {
      running: 'Running',
      paused: 'Paused since %{time}',
      warning: 'Warning: %{threshold}% used',
      breached: 'Breached',
      met: 'Met',
    },
    duration: {
      under_minute: '< 1 min',
      minutes: '%{m} min',
      hours: '%{h} h',
      hours_minutes: '%{h} h %{m} min',
    },
    business_time: 'Times count in business hours.',
    promise: {
      title: 'Our promise',
      first_response: 'Response',
      resolution: 'Resolution',
      within: 'within %{time}',
      expected: 'expected by %{time}',
      paused: 'on hold while we wait for your reply',
      met: 'Met on %{time}',
      met_plain: 'Met',
      breached: 'Not met',
    },
  },
};

export type SlaMessages = typeof slaMessages;

export default slaMessages;
