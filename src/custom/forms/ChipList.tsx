/**
 * Names shown as a list of small chips (a role's portal resources, a trigger's watched fields): the
 * one look of a list of named values on a detail, in a table cell or card.
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';

export function ChipList({ items }: { items: { key: string; label: string }[] }) {
  if (items.length === 0) return null;
  return (
    <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, m: 0, p: 0, listStyle: 'none' }}>
      {items.map((item) => (
        <li key={item.key}>
          <Chip size="small" label={item.label} />
        </li>
      ))}
    </Box>
  );
}
