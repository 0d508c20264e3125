/**
 * A mail whose sender was not verified (issue 31): operators see it marked so, with the address the
 * From line claims, and, with the permission, 'Confirm sender' (the message becomes the client's and
 * the client sees it) and 'Reject sender' (it stays hidden, marked rejected). A rejected one says so.
 * The portal never shows it: the server does not hand such a message to clients.
 */
import { Alert, Button, Stack } from '@mui/material';
import GppMaybe from '@mui/icons-material/GppMaybe';
import { useCanAccess, useTranslate } from 'react-admin';
import { useActionCall, useActionsProvider } from '../detail/recordActions.tsx';
import type { ThreadMessage } from './helpers.ts';

export default function SenderCheck({
  message,
  onDecided,
}: {
  message: ThreadMessage;
  onDecided: () => void;
}) {
  const translate = useTranslate();
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const { canAccess: canConfirm } = useCanAccess({ resource: 'messages', action: 'confirm-sender' });
  const { canAccess: canReject } = useCanAccess({ resource: 'messages', action: 'reject-sender' });
  const state = message.sender_check;
  if (state !== 'unverified' && state !== 'rejected') return null;
  const address = message.original_email_from || translate('app.messages.sender_unknown');
  const decide = (decision: 'confirm' | 'reject') =>
    void run(
      () => dataProvider.recordAction('messages', message.id, `${decision}-sender`),
      decision === 'confirm' ? 'app.messages.sender_confirmed_done' : 'app.messages.sender_rejected_done',
      onDecided,
    );
  return (
    <Alert
      severity={state === 'unverified' ? 'warning' : 'error'}
      variant="outlined"
      icon={<GppMaybe aria-hidden="true" />}
      data-testid="sender-check"
      data-sender-check={state}
      // A standing fact of the message, not news: no live region (MUI's default role is alert).
      role="note"
      title={message.sender_check_note ?? undefined}
      sx={{ mt: 1, bgcolor: '#fff8e1', color: '#4d2e00', '& .MuiAlert-message': { minWidth: 0 } }}
    >
      {translate(`app.messages.sender_${state}`, { address })}
      {state === 'unverified' && (canConfirm || canReject) && (
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          {canConfirm && (
            <Button size="small" variant="outlined" disabled={busy} onClick={() => decide('confirm')}>
              {translate('app.messages.confirm_sender')}
            </Button>
          )}
          {canReject && (
            <Button
              size="small"
              variant="outlined"
              color="error"
              disabled={busy}
              onClick={() => decide('reject')}
            >
              {translate('app.messages.reject_sender')}
            </Button>
          )}
        </Stack>
      )}
    </Alert>
  );
}
