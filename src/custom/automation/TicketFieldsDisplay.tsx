/**
 * The ticket fields a trigger watches as people read them (`x-input: "ticket-fields"`, beside
 * ./TicketFieldsInput.tsx): one chip per field by the ticket list's label, instead of the stored names
 * (`status_id`).
 */
import { ChipList } from '../forms/ChipList.tsx';
import { useTicketFieldNames } from './ticketFieldNames.ts';

export default function TicketFieldsDisplay({ value }: { value: unknown; full?: boolean }) {
  const { label } = useTicketFieldNames(value);
  const names = Array.isArray(value) ? value.map(String) : [];
  return <ChipList items={names.map((key) => ({ key, label: label(key) }))} />;
}
