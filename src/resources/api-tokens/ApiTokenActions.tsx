/**
 * An API token's action in the back-office detail header: revoke it (after confirmation). A revoked token
 * stays listed for the audit log, marked with the moment it was revoked.
 */
import { useState } from 'react';
import { Button, Chip } from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import { useCanAccess, useTranslate } from 'react-admin';
import type { RecordActionsProps } from '../override-contract.ts';
import { ConfirmDialog, useActionCall, useActionsProvider } from '../../custom/detail/recordActions.tsx';
import { requestReload } from '../../dataProvider/reload.ts';
import { formatDate } from '../../../common/format.ts';

export default function ApiTokenActions({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const [confirming, setConfirming] = useState(false);
  const canRevoke = useCanAccess({ resource: 'api-tokens', action: 'revoke' }).canAccess === true;

  if (record.revoked_at)
    return (
      <Chip
        color="warning"
        icon={<BlockIcon />}
        label={translate('api_tokens.revoked_since', { date: formatDate(String(record.revoked_at)) })}
      />
    );
  if (!canRevoke) return null;
  const revoke = () =>
    void run(
      () => dataProvider.recordAction('api-tokens', record.id, 'revoke'),
      'api_tokens.revoked',
      () => {
        setConfirming(false);
        requestReload();
      },
    );
  return (
    <>
      <Button variant="outlined" color="error" startIcon={<BlockIcon />} onClick={() => setConfirming(true)}>
        {translate('api_tokens.revoke')}
      </Button>
      <ConfirmDialog
        open={confirming}
        text={translate('api_tokens.revoke_confirm', { name: String(record.name) })}
        confirmLabel={translate('api_tokens.revoke')}
        onClose={() => setConfirming(false)}
        onConfirm={revoke}
        busy={busy}
      />
    </>
  );
}
