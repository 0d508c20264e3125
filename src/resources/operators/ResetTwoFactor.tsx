/**
 * 'Reset two-factor sign-in' in the detail header of an operator or a client (issue 38, item 1): after
 * a confirmation, POST /{resource}/{id}/reset-two-factor removes the user's second factor. Shown only
 * to a caller with `tenant.<resource>.reset-two-factor` (second line); the server checks it again.
 */
import { useState } from 'react';
import { Button } from '@mui/material';
import Security from '@mui/icons-material/Security';
import { useCanAccess, useResourceContext, useTranslate } from 'react-admin';
import type { RecordActionsProps } from '../override-contract.ts';
import { ConfirmDialog, useActionCall, useActionsProvider } from '../../custom/detail/recordActions.tsx';

export default function ResetTwoFactor({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const resource = useResourceContext() ?? 'operators';
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const [confirming, setConfirming] = useState(false);
  const may = useCanAccess({ resource, action: 'reset-two-factor' }).canAccess === true;
  if (!may) return null;
  const reset = () =>
    void run(
      () => dataProvider.recordAction(resource, record.id, 'reset-two-factor'),
      'app.two_factor.reset_done',
      () => setConfirming(false),
    );
  return (
    <>
      <Button variant="outlined" startIcon={<Security />} onClick={() => setConfirming(true)}>
        {translate('app.two_factor.reset')}
      </Button>
      <ConfirmDialog
        open={confirming}
        text={translate('app.two_factor.reset_confirm')}
        confirmLabel={translate('app.two_factor.reset')}
        onClose={() => setConfirming(false)}
        onConfirm={reset}
        busy={busy}
      />
    </>
  );
}
