/**
 * A mail of the outbox that was not sent (issue 15, item 4): "Try again" in the back-office detail
 * header, for an operator with `tenant.mail-outbox.retry`. The server queues it again and tries it at
 * once; the toast says how that went. A mail that went is no longer in the list: back to it.
 */
import { Button } from '@mui/material';
import ReplayIcon from '@mui/icons-material/Replay';
import { useCanAccess, useRedirect, useTranslate } from 'react-admin';
import type { RecordActionsProps } from '../override-contract.ts';
import { useActionCall, useActionsProvider, type ActionSuccess } from '../../custom/detail/recordActions.tsx';

/** POST /api/mail-outbox/{id}/retry's answer (server/resources/mail-outbox/actions.ts). */
interface RetryAnswer {
  status: 'sent' | 'queued' | 'sending' | 'failed';
  mail_error?: string;
}

function notice({ status, mail_error }: RetryAnswer): ActionSuccess {
  if (status === 'sent') return 'app.mail_outbox_actions.sent';
  if (!mail_error) return 'app.mail_outbox_actions.queued';
  return {
    message: status === 'failed' ? 'app.mail_outbox_actions.given_up' : 'app.mail_outbox_actions.retrying',
    type: 'warning',
  };
}

export default function MailOutboxActions({ record, refetch }: RecordActionsProps) {
  const translate = useTranslate();
  const dataProvider = useActionsProvider();
  const redirect = useRedirect();
  const { run, busy } = useActionCall();
  const { canAccess } = useCanAccess({ resource: 'mail-outbox', action: 'retry' });
  // A mail being sent has its outcome coming: trying it again then is refused.
  if (!canAccess || record.status === 'sending') return null;
  return (
    <Button
      variant="outlined"
      startIcon={<ReplayIcon />}
      disabled={busy}
      onClick={() =>
        void run(
          () => dataProvider.recordAction<RetryAnswer>('mail-outbox', record.id, 'retry'),
          notice,
          (answer) => (answer.status === 'sent' ? redirect('list', 'mail-outbox') : refetch()),
        )
      }
    >
      {translate('app.mail_outbox_actions.retry')}
    </Button>
  );
}
