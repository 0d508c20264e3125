/**
 * A list of portal resources as people read it (`x-input: "portal-resources"`, beside
 * ./PortalResourcesInput.tsx): one chip per resource by its translated name, on a detail and in a table
 * cell or card, instead of the raw names ('tickets', 'invoices') the API stores.
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import { useTranslate } from 'react-admin';
import { portalResourceName } from './portalResourceNames.ts';

export default function PortalResourcesDisplay({ value }: { value: unknown; full?: boolean }) {
  const translate = useTranslate();
  const names = Array.isArray(value) ? value.map(String) : [];
  if (names.length === 0) return null;
  return (
    <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, m: 0, p: 0, listStyle: 'none' }}>
      {names.map((name) => (
        <li key={name}>
          <Chip size="small" label={portalResourceName(translate, name)} />
        </li>
      ))}
    </Box>
  );
}
