/**
 * A quote's own actions in the back-office detail header (SPEC 7): send (a concept or sent quote),
 * decline (a sent quote, after a confirmation), duplicate (opens the new concept quote) and download the
 * PDF. Accepting stays the client's signature in the portal. Each button needs its permission.
 */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import DeclineIcon from '@mui/icons-material/ThumbDownOffAlt';
import CopyIcon from '@mui/icons-material/ContentCopy';
import PdfIcon from '@mui/icons-material/PictureAsPdf';
import { useCanAccess, useRedirect, useResourceDefinition, useTranslate, type RaRecord } from 'react-admin';
import type { RecordActionsProps } from '../overrides.ts';
import { useActionCall, useActionsProvider } from '../../custom/detail/recordActions.tsx';
import { saveBlob } from '../../custom/saveBlob.ts';

/** SPEC 3 quote statuses. */
const CONCEPT = 1;
const SENT = 2;

function useCan(action: string) {
  return useCanAccess({ resource: 'quotes', action }).canAccess === true;
}

export default function QuoteActions({ record, refetch }: RecordActionsProps) {
  const translate = useTranslate();
  const dataProvider = useActionsProvider();
  const redirect = useRedirect();
  // The record page is the show or the edit route, as the list opens a row.
  const definition = useResourceDefinition({ resource: 'quotes' });
  const { run, busy } = useActionCall();
  const [declining, setDeclining] = useState(false);
  const canSend = useCan('send');
  const canDecline = useCan('decline');
  const canDuplicate = useCan('duplicate');
  const canDownload = useCan('download');
  const status = Number(record.status_id);

  return (
    <>
      {canSend && (status === CONCEPT || status === SENT) && (
        <Button
          variant="outlined"
          startIcon={<SendIcon />}
          disabled={busy}
          onClick={() =>
            void run(
              () => dataProvider.recordAction('quotes', record.id, 'send'),
              'app.quote_actions.sent',
              refetch,
            )
          }
        >
          {translate(status === SENT ? 'app.quote_actions.send_again' : 'app.quote_actions.send')}
        </Button>
      )}
      {canDecline && status === SENT && (
        <>
          <Button variant="outlined" startIcon={<DeclineIcon />} onClick={() => setDeclining(true)}>
            {translate('app.quote_actions.decline')}
          </Button>
          <Dialog open={declining} onClose={() => setDeclining(false)} aria-labelledby="decline-quote-text">
            <DialogContent>
              <DialogContentText id="decline-quote-text">
                {translate('app.quote_actions.decline_confirm')}
              </DialogContentText>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setDeclining(false)}>{translate('ra.action.cancel')}</Button>
              <Button
                variant="contained"
                disabled={busy}
                onClick={() =>
                  void run(
                    () => dataProvider.recordAction('quotes', record.id, 'decline'),
                    'app.quote_actions.declined',
                    async () => {
                      setDeclining(false);
                      await refetch();
                    },
                  )
                }
              >
                {translate('app.quote_actions.decline')}
              </Button>
            </DialogActions>
          </Dialog>
        </>
      )}
      {canDuplicate && (
        <Button
          variant="outlined"
          startIcon={<CopyIcon />}
          disabled={busy}
          onClick={() =>
            void run(
              () => dataProvider.recordAction<RaRecord>('quotes', record.id, 'duplicate'),
              'app.quote_actions.duplicated',
              (copy) => redirect(definition?.hasShow ? 'show' : 'edit', 'quotes', copy.id),
            )
          }
        >
          {translate('app.quote_actions.duplicate')}
        </Button>
      )}
      {canDownload && (
        <Button
          variant="outlined"
          startIcon={<PdfIcon />}
          disabled={busy}
          onClick={() =>
            void run(
              async () =>
                saveBlob(
                  await dataProvider.recordDownload('quotes', record.id),
                  `${String(record.name ?? `quote-${record.id}`)}.pdf`,
                ),
              'app.quote_actions.downloaded',
            )
          }
        >
          {translate('app.quote_actions.download')}
        </Button>
      )}
    </>
  );
}
