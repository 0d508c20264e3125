/**
 * The ticket list's bulk bar applies a macro to the selected tickets (issue 37, item 3), for operators
 * who may (tenant.macros.apply).
 */
import { Box } from '@mui/material';
import { useTranslate } from 'react-admin';
import { storedUserMay } from '../../authProvider/index.ts';
import type { BulkControlsProps } from '../override-contract.ts';
import MacroMenu from '../../custom/macros/MacroMenu.tsx';

export default function TicketBulkMacros({ selected, onDone }: BulkControlsProps) {
  const translate = useTranslate();
  if (!storedUserMay('backoffice', 'macros', 'apply')) return null;
  return (
    <Box sx={{ display: 'flex', gap: 1, pb: 1 }}>
      <MacroMenu ticketIds={selected} onApplied={onDone} label={translate('macros.bulk')} />
    </Box>
  );
}
