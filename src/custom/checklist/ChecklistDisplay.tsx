/**
 * A checklist template as people read it (`x-input: "checklist"`), beside ./ChecklistInput.tsx: on a
 * detail, one numbered line per item with whether it is required and shown to the client; in a table
 * cell or card, the items' texts. Raw JSON was all a reader had before.
 */
import Box from '@mui/material/Box';
import { useTranslate } from 'react-admin';

interface Item {
  text?: unknown;
  required?: unknown;
  visible_to_client?: unknown;
}

const ITEMS = 'checklist-items';

export default function ChecklistDisplay({ value, full }: { value: unknown; full?: boolean }) {
  const translate = useTranslate();
  const items = Array.isArray(value) ? (value as Item[]) : [];
  if (items.length === 0) return null;
  if (!full) return <>{items.map((i) => String(i.text ?? '')).join(' · ')}</>;
  const flag = (name: string) => translate(`resources.${ITEMS}.fields.${name}`).toLowerCase();
  return (
    <Box component="ol" data-testid="checklist-template" sx={{ m: 0, pl: 3 }}>
      {items.map((item, index) => {
        const flags = [
          item.required === true && flag('required'),
          item.visible_to_client === true && flag('visible_to_client'),
        ].filter(Boolean);
        return (
          <li key={index}>
            {String(item.text ?? '')}
            {flags.length > 0 && ` (${flags.join(', ')})`}
          </li>
        );
      })}
    </Box>
  );
}
