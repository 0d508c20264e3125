/** The time on a ticket in its detail header (src/resources/tickets/TicketTimeSummary.tsx) in English. */
const ticketTimeMessages = {
  ticket_time: {
    label: 'Time on this ticket',
    total: 'Time: %{time}',
    remaining: '%{contract}: %{time} left',
  },
};

export type TicketTimeMessages = typeof ticketTimeMessages;

export default ticketTimeMessages;
