/** The time on a ticket in its detail header (src/resources/tickets/TicketTimeSummary.tsx) in English. */
const ticketTimeMessages = {
  ticket_time: {
    label: 'Time on this ticket',
    total: 'Time: %{time}',
    remaining: '%{contract}: %{time} left',
    failed: 'The time on this ticket could not be loaded.',
  },
};

export type TicketTimeMessages = typeof ticketTimeMessages;

export default ticketTimeMessages;
