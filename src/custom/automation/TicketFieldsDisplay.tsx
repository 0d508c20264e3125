/**
 * The ticket fields a trigger watches as people read them (`x-input: "ticket-fields"`, beside
 * ./TicketFieldsInput.tsx): one chip per field by the ticket list's label, instead of the stored names
 * (`status_id`).
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { useTicketFieldNames } from './ticketFieldNames.ts';

export default function TicketFieldsDisplay({ value }: { value: unknown; full?: boolean }) {
  const { label } = useTicketFieldNames(value);
  const names = Array.isArray(value) ? value.map(String) : [];
  if (names.length === 0) return null;
  return (
    <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, m: 0, p: 0, listStyle: 'none' }}>
      {names.map((name) => (
        <li key={name}>
          <Chip size="small" label={label(name)} />
        </li>
      ))}
    </Box>
  );
}
