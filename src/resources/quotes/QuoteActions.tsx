/**
 * A quote's own actions in the back-office detail header (SPEC 7): send (a concept or sent quote),
 * decline (a sent quote, after a confirmation), duplicate (opens the new concept quote), download the
 * PDF, and accept a sent quote with the client's signature taken on the operator's screen (the same form
 * as the portal's, the name prefilled with the deal's client). Each button needs its permission. A quote
 * past its validity date can be neither sent nor accepted until it is extended (./QuoteValidity.tsx says
 * so): those two buttons are not offered.
 */
import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText } from '@mui/material';
import AcceptIcon from '@mui/icons-material/Draw';
import SendIcon from '@mui/icons-material/Send';
import DeclineIcon from '@mui/icons-material/ThumbDownOffAlt';
import CopyIcon from '@mui/icons-material/ContentCopy';
import PdfIcon from '@mui/icons-material/PictureAsPdf';
import {
  useCanAccess,
  useGetOne,
  useRedirect,
  useResourceDefinition,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import type { RecordActionsProps } from '../override-contract.ts';
import { useActionCall, useActionsProvider } from '../../custom/detail/recordActions.tsx';
import { saveBlob } from '../../custom/saveBlob.ts';
import { AcceptForm } from './AcceptForm.tsx';
import { serverTextKey } from '../../shell/errors.ts';
import { quoteExpired } from '../../../common/quote-validity.ts';

/** SPEC 3 quote statuses. */
const CONCEPT = 1;
const SENT = 2;

/** POST /api/quotes/{id}/send's answer: `mail_error` when the mail server refused the mail (for now). */
interface SendAnswer {
  recipient: string;
  mail_error?: string;
}

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
  const [accepting, setAccepting] = useState(false);
  const canAccept = useCan('accept');
  // SPEC 5: the signer's name starts as the client's full name (the quote's deal's client).
  const { data: deal } = useGetOne(
    'deals',
    { id: record.deal_id, meta: { with: ['client'] } },
    { enabled: accepting && record.deal_id != null },
  );
  const canSend = useCan('send');
  const canDecline = useCan('decline');
  const canDuplicate = useCan('duplicate');
  const canDownload = useCan('download');
  const status = Number(record.status_id);
  const expired = quoteExpired(record);

  return (
    <>
      {canSend && !expired && (status === CONCEPT || status === SENT) && (
        <Button
          variant="outlined"
          startIcon={<SendIcon />}
          disabled={busy}
          onClick={() =>
            void run(
              () => dataProvider.recordAction<SendAnswer>('quotes', record.id, 'send'),
              // The quote is sent either way; a refused mail (tried again, or given up) is a warning
              // not to send it again.
              ({ recipient, mail_error }) =>
                mail_error
                  ? {
                      message: serverTextKey(mail_error) ?? 'app.server.quote_mail_retrying',
                      type: 'warning',
                    }
                  : { message: 'app.quote_actions.sent', args: { email: recipient } },
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
      {canAccept && !expired && status === SENT && (
        <>
          <Button variant="outlined" startIcon={<AcceptIcon />} onClick={() => setAccepting(true)}>
            {translate('app.quote.accept')}
          </Button>
          <Dialog
            open={accepting}
            onClose={() => setAccepting(false)}
            fullWidth
            maxWidth="sm"
            aria-labelledby="quote-accept-title"
          >
            <AcceptForm
              // Mounted again once the client's name is known, so the field starts with it.
              key={deal?.client?.full_name ?? 'unknown'}
              quote={record}
              defaultName={deal?.client?.full_name ?? ''}
              onAccepted={() => {
                setAccepting(false);
                void refetch();
              }}
            />
            <DialogActions>
              <Button onClick={() => setAccepting(false)}>{translate('ra.action.cancel')}</Button>
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
