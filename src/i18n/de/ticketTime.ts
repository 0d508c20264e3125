import type { TicketTimeMessages } from '../en/ticketTime.ts';
import type { DeepPartial } from '../types.ts';

/** The time on a ticket in its detail header in German; written in full, typed as partial (English fallback). */
const ticketTimeMessages: DeepPartial<TicketTimeMessages> = {
  ticket_time: {
    label: 'Zeit für dieses Ticket',
    total: 'Zeit: %{time}',
    remaining: '%{contract}: noch %{time}',
    failed: 'Die Zeit zu diesem Ticket konnte nicht geladen werden.',
  },
};

export default ticketTimeMessages;
