import type { TicketTimeMessages } from '../en/ticketTime.ts';
import type { Messages } from '../types.ts';

/** The time on a ticket in its detail header in Dutch (the default language); typed against the English file. */
const ticketTimeMessages: Messages<TicketTimeMessages> = {
  ticket_time: {
    label: 'Tijd op dit ticket',
    total: 'Tijd: %{time}',
    remaining: '%{contract}: nog %{time}',
    failed: 'De tijd op dit ticket kon niet worden geladen.',
  },
};

export default ticketTimeMessages;
