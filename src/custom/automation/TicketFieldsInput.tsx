/**
 * The form input of the ticket fields a "ticket updated" trigger watches (`x-input: "ticket-fields"`):
 * a searchable list of the tickets' fields by their labels, chosen as chips; none chosen means any
 * change. It writes the field names the API checks.
 */
import { AutocompleteArrayInput, useRecordContext } from 'react-admin';
import type { InputExtraProps } from '../../resources/fields/kinds.ts';
import { useTicketFieldNames } from './ticketFieldNames.ts';

export default function TicketFieldsInput(props: InputExtraProps) {
  const record = useRecordContext();
  const { choices } = useTicketFieldNames(record?.[props.source]);
  return (
    <AutocompleteArrayInput
      {...props}
      choices={choices}
      translateChoice={false}
      parse={(value: unknown) => (Array.isArray(value) ? value : [])}
      fullWidth
    />
  );
}
