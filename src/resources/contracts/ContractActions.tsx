/**
 * A contract's own action in the back-office detail header: a prepaid contract (period 'none') is topped
 * up with a prepaid card (SPEC 7 contracts/{id}/buy), the portal's form in a dialog, for an operator with
 * `tenant.contracts.buy`. `?upgrade=1` (the ticket's balance card's "buy more") opens the dialog at once.
 */
import { useState } from 'react';
import { Button, Dialog, DialogActions } from '@mui/material';
import AddCardIcon from '@mui/icons-material/AddCard';
import { useCanAccess, useTranslate } from 'react-admin';
import { useSearchParams } from 'react-router-dom';
import type { RecordActionsProps } from '../override-contract.ts';
import { UpgradeForm } from './UpgradeForm.tsx';

/** SPEC 3: the period of a prepaid contract. */
const PREPAID = 'none';

export default function ContractActions({ record, refetch }: RecordActionsProps) {
  const translate = useTranslate();
  const [search] = useSearchParams();
  const [open, setOpen] = useState(() => search.get('upgrade') === '1');
  const { canAccess } = useCanAccess({ resource: 'contracts', action: 'buy' });
  if (!canAccess || record.period !== PREPAID) return null;
  return (
    <>
      <Button variant="outlined" startIcon={<AddCardIcon />} onClick={() => setOpen(true)}>
        {translate('app.prepaid.upgrade')}
      </Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        fullWidth
        maxWidth="sm"
        aria-labelledby="prepaid-upgrade-title"
      >
        <UpgradeForm
          contract={record}
          onBought={() => {
            setOpen(false);
            void refetch();
          }}
        />
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('ra.action.cancel')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
