/**
 * A back-office invoice's header (SPEC 4): whether it is a draft (no external id) or invoiced, its status
 * from the stored list with that list's style (an unknown status shows as status 1), and its actions:
 * export (the PDF with the PDF-export module, else a re-export request) and, for an invoiced one,
 * restore to concept after a plain confirmation (restoring deletes nothing).
 */
import { useState } from 'react';
import { Box, Button, Chip, Dialog, DialogActions, DialogContent, DialogContentText } from '@mui/material';
import ExportIcon from '@mui/icons-material/FileDownload';
import RestoreIcon from '@mui/icons-material/SettingsBackupRestore';
import { useCanAccess, useGetList, useNotify, useTranslate } from 'react-admin';
import type { RecordActionsProps } from '../override-contract.ts';
import { useActionCall, useActionsProvider } from '../../custom/detail/recordActions.tsx';
import { saveBlob } from '../../custom/saveBlob.ts';

/** SPEC 4: an invoice status that is not in the stored list is shown as this one. */
const FALLBACK_STATUS = 1;

/**
 * Stored list styles -> theme colours of the dot before the status; the text keeps the normal colour, so
 * its contrast does not depend on the style.
 */
const STYLE_COLOURS: Record<string, string> = {
  info: 'info.main',
  primary: 'primary.main',
  secondary: 'secondary.main',
  success: 'success.main',
  warning: 'warning.main',
  error: 'error.main',
  danger: 'error.main',
};

export default function BackofficeInvoiceActions({ record, refetch }: RecordActionsProps) {
  const translate = useTranslate();
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const notify = useNotify();
  const [confirming, setConfirming] = useState(false);
  const [exporting, setExporting] = useState(false);
  const canExport = useCanAccess({ resource: 'invoices', action: 'export' }).canAccess === true;
  const canRestore = useCanAccess({ resource: 'invoices', action: 'restore' }).canAccess === true;
  const { data: statuses = [] } = useGetList('invoice-statuses', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'id', order: 'ASC' },
  });
  const invoiced = Boolean(record.external_id);
  const status =
    statuses.find((s) => String(s.id) === String(record.status_id)) ??
    statuses.find((s) => Number(s.id) === FALLBACK_STATUS);
  const label = String(record.code ?? `invoice-${record.id}`);

  const exportInvoice = async () => {
    setExporting(true);
    try {
      const answer = await dataProvider.call<Blob>('POST', `invoicing/export/${record.id}`, {
        responseType: 'blob',
      });
      // Without the PDF-export module the server answers {reExport: true} instead of the file.
      if (answer.type.includes('json')) {
        notify('app.invoicing.re_export_requested', { type: 'success' });
        await refetch();
      } else {
        saveBlob(answer, `${label}.pdf`);
        notify('app.invoicing.exported', { type: 'success' });
      }
    } catch (error) {
      notify((error as Error).message || 'app.errors.generic', { type: 'error' });
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <Chip
        variant="outlined"
        label={translate(invoiced ? 'app.invoicing.state_invoiced' : 'app.invoicing.state_draft')}
      />
      {status && (
        <Chip
          variant="outlined"
          data-style={String(status.style ?? '')}
          icon={
            <Box
              component="span"
              aria-hidden="true"
              sx={{
                width: 10,
                height: 10,
                borderRadius: '50%',
                bgcolor: STYLE_COLOURS[String(status.style)] ?? 'grey.500',
              }}
            />
          }
          label={translate(`enums.invoiceStatuses.${String(status.id)}`, { _: String(status.name) })}
        />
      )}
      {canExport && (
        <Button
          variant="outlined"
          startIcon={<ExportIcon />}
          disabled={exporting}
          onClick={() => void exportInvoice()}
        >
          {translate('app.invoicing.export')}
        </Button>
      )}
      {canRestore && invoiced && (
        <>
          <Button variant="outlined" startIcon={<RestoreIcon />} onClick={() => setConfirming(true)}>
            {translate('app.invoicing.restore')}
          </Button>
          <Dialog
            open={confirming}
            onClose={() => setConfirming(false)}
            aria-labelledby="restore-invoice-text"
          >
            <DialogContent>
              <DialogContentText id="restore-invoice-text">
                {translate('app.invoicing.restore_confirm')}
              </DialogContentText>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setConfirming(false)}>{translate('ra.action.cancel')}</Button>
              <Button
                variant="contained"
                disabled={busy}
                onClick={() =>
                  void run(
                    () => dataProvider.call('PUT', `invoicing/restore/${record.id}`),
                    'app.invoicing.restored',
                    async () => {
                      setConfirming(false);
                      await refetch();
                    },
                  )
                }
              >
                {translate('app.invoicing.restore')}
              </Button>
            </DialogActions>
          </Dialog>
        </>
      )}
    </>
  );
}
