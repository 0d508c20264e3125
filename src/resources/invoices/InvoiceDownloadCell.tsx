import IconButton from '@mui/material/IconButton';
import DownloadIcon from '@mui/icons-material/Download';
import { useCanAccess, useTranslate, type RaRecord } from 'react-admin';
import { useInvoiceDownload } from './download.ts';

/** The invoices list's download link (SPEC 2: invoice list columns end with a download link). */
export function InvoiceDownloadCell({ record }: { record: RaRecord }) {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'invoices', action: 'download' });
  const { download, busy } = useInvoiceDownload();
  if (!canAccess) return null;
  return (
    <IconButton
      size="small"
      disabled={busy}
      aria-label={translate('app.invoices.download_label', { code: String(record.code ?? record.id) })}
      onClick={(event) => {
        event.stopPropagation();
        void download(record);
      }}
      onKeyDown={(event) => event.stopPropagation()}
    >
      <DownloadIcon fontSize="small" />
    </IconButton>
  );
}

export const invoiceDownloadColumn = { label: 'app.invoices.download', Cell: InvoiceDownloadCell };
