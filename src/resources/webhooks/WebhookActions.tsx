/**
 * A webhook's own actions in the back-office detail header (issue 38, item 4): "Send test event" (the
 * server delivers a `ping` at once; the toast says how it went and the deliveries tab shows it) and
 * "Rotate secret" (asked first: the old secret stops working). The signing secret is shown in a dialog
 * once: after the create (its answer, kept by the create screen) and after a rotation.
 */
import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  TextField,
} from '@mui/material';
import KeyIcon from '@mui/icons-material/Key';
import SendIcon from '@mui/icons-material/Send';
import { useQueryClient } from '@tanstack/react-query';
import { useCanAccess, useTranslate } from 'react-admin';
import type { RecordActionsProps } from '../override-contract.ts';
import {
  ConfirmDialog,
  useActionCall,
  useActionsProvider,
  type ActionSuccess,
} from '../../custom/detail/recordActions.tsx';
import { createdAnswer, forgetCreated } from '../../custom/detail/createdOnce.ts';
import { requestReload } from '../../dataProvider/reload.ts';

/** POST /api/webhooks/{id}/test's answer (server/resources/webhooks/actions.ts). */
interface TestAnswer {
  status: 'queued' | 'sending' | 'delivered' | 'failed';
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
}

function testNotice(answer: TestAnswer): ActionSuccess {
  if (answer.status === 'delivered')
    return {
      message: 'app.webhook_actions.test_delivered',
      args: { status: answer.status_code, ms: answer.duration_ms },
    };
  return {
    message:
      answer.status === 'failed' ? 'app.webhook_actions.test_failed' : 'app.webhook_actions.test_retrying',
    args: { error: answer.error ?? '' },
    type: 'warning',
  };
}

export default function WebhookActions({ record, refetch }: RecordActionsProps) {
  const translate = useTranslate();
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const [secret, setSecret] = useState<string | undefined>(() => {
    const created = createdAnswer('webhooks', record.id)?.secret;
    return typeof created === 'string' ? created : undefined;
  });
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const { canAccess: mayTest } = useCanAccess({ resource: 'webhooks', action: 'test' });
  const { canAccess: mayRotate } = useCanAccess({ resource: 'webhooks', action: 'rotate' });
  return (
    <>
      {mayTest && (
        <Button
          variant="outlined"
          startIcon={<SendIcon />}
          disabled={busy}
          onClick={() =>
            void run(
              () => dataProvider.recordAction<TestAnswer>('webhooks', record.id, 'test'),
              testNotice,
              async () => {
                // The deliveries tab and its count show the new delivery.
                await queryClient.invalidateQueries({ queryKey: ['webhook-deliveries'] });
                requestReload();
                await refetch();
              },
            )
          }
        >
          {translate('app.webhook_actions.test')}
        </Button>
      )}
      {mayRotate && (
        <Button
          variant="outlined"
          startIcon={<KeyIcon />}
          disabled={busy}
          onClick={() => setConfirming(true)}
        >
          {translate('app.webhook_actions.rotate')}
        </Button>
      )}
      <ConfirmDialog
        open={confirming}
        text={translate('app.webhook_actions.rotate_confirm')}
        confirmLabel={translate('app.webhook_actions.rotate')}
        busy={busy}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void run(
            () => dataProvider.recordAction<{ secret: string }>('webhooks', record.id, 'rotate'),
            'app.webhook_actions.rotated',
            (answer) => setSecret(answer.secret),
          );
        }}
      />
      <Dialog open={secret !== undefined} aria-labelledby="webhook-secret-title" fullWidth maxWidth="sm">
        <DialogTitle id="webhook-secret-title">{translate('app.webhook_actions.secret_title')}</DialogTitle>
        <DialogContent>
          <DialogContentText id="webhook-secret-text">
            {translate('app.webhook_actions.secret_once')}
          </DialogContentText>
          <TextField
            value={secret ?? ''}
            label={translate('app.webhook_actions.secret_label')}
            fullWidth
            margin="normal"
            slotProps={{ htmlInput: { readOnly: true, 'aria-describedby': 'webhook-secret-text' } }}
            onFocus={(event) => event.target.select()}
          />
        </DialogContent>
        <DialogActions>
          <Button
            variant="contained"
            onClick={() => {
              forgetCreated('webhooks', record.id);
              setSecret(undefined);
            }}
          >
            {translate('app.webhook_actions.secret_done')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
