/**
 * The detail header's invoice buttons of a record that can go on a draft invoice (schemas with
 * x-invoice-line: time registrations, used products): 'Invoice' while it is on no invoice, 'De-invoice'
 * while it is on a draft; a chip says which invoice it is on. Each button behind its permission, with the
 * spec's toasts. A line of a sent invoice (external id set) has no button: the server refuses it.
 */
import { Button, Chip } from '@mui/material';
import ReceiptIcon from '@mui/icons-material/ReceiptLong';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutline';
import { useCanAccess, useGetOne, useResourceContext, useTranslate } from 'react-admin';
import type { RecordActionsProps } from '../override-contract.ts';
import { useActionCall, useActionsProvider } from '../../custom/detail/recordActions.tsx';

export default function InvoiceLineActions({ record, refetch }: RecordActionsProps) {
  const resource = useResourceContext() ?? '';
  const translate = useTranslate();
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const canInvoice = useCanAccess({ resource, action: 'invoice' }).canAccess === true;
  const canDeinvoice = useCanAccess({ resource, action: 'deinvoice' }).canAccess === true;
  const invoiced = record.invoice_id !== null && record.invoice_id !== undefined;
  const { data: invoice } = useGetOne('invoices', { id: record.invoice_id }, { enabled: invoiced });
  const sent = Boolean(invoice?.external_id);

  const call = (action: 'invoice' | 'deinvoice', success: string) =>
    void run(() => dataProvider.collectionAction(resource, action, { ids: [record.id] }), success, refetch);

  return (
    <>
      {invoiced && invoice && (
        <Chip
          variant="outlined"
          label={
            sent
              ? translate('app.invoicing.on_sent_invoice', { code: String(invoice.code ?? invoice.id) })
              : translate('app.invoicing.on_draft_invoice')
          }
        />
      )}
      {canInvoice && !invoiced && (
        <Button
          variant="outlined"
          startIcon={<ReceiptIcon />}
          disabled={busy}
          onClick={() => call('invoice', 'app.invoicing.invoiced')}
        >
          {translate('app.invoicing.invoice')}
        </Button>
      )}
      {canDeinvoice && invoiced && !sent && (
        <Button
          variant="outlined"
          startIcon={<RemoveIcon />}
          disabled={busy}
          onClick={() => call('deinvoice', 'app.invoicing.deinvoiced')}
        >
          {translate('app.invoicing.deinvoice')}
        </Button>
      )}
    </>
  );
}
