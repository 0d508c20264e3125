/**
 * The portal's invoice page: the invoice's fields as cards and the download button for its PDF (the
 * invoices list has the same download link as its last column).
 */
import { useReloadOnEvent, recordTitle } from '../../custom/detail/parts.tsx';
import { FieldCards } from '../../custom/detail/FieldCards.tsx';
import { useInvoiceDownload } from './download.ts';
import { Button } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useCanAccess, useShowContext, useTranslate } from 'react-admin';
import { readableFieldsFor } from '../../../common/schema/fields.ts';
import { registry } from '../../schema.ts';
import { referencesOf } from '../../custom/detail/DetailScreen.tsx';
import { ShowRecord } from '../../custom/detail/ShowRecord.tsx';
import { ScreenFrame } from '../../custom/detail/ScreenFrame.tsx';

const invoices = () => registry.require('invoices');

function InvoiceBody() {
  const translate = useTranslate();
  const { record, refetch, isPending } = useShowContext();
  const { canAccess: canDownload } = useCanAccess({ resource: 'invoices', action: 'download' });
  const { canAccess: canShow } = useCanAccess({ resource: 'invoices', action: 'show' });
  const { download: downloadInvoice, busy: downloading } = useInvoiceDownload();

  useReloadOnEvent(refetch);

  if (isPending || !record) return null;
  const resource = invoices();
  const label = String(record[resource.label] ?? record.id);
  const title = recordTitle(translate, resource, record);
  const fields = readableFieldsFor(resource, true).filter((f) => f.name !== 'id');

  return (
    <ScreenFrame
      title={title}
      actions={
        (canDownload || canShow) && (
          <Button
            startIcon={<DownloadIcon />}
            variant="outlined"
            onClick={() => void downloadInvoice(record)}
            disabled={downloading}
            aria-label={translate('app.invoices.download_label', { code: label })}
          >
            {translate('app.invoices.download')}
          </Button>
        )
      }
    >
      <FieldCards
        resource={resource.name}
        record={record}
        size={{ xs: 12, sm: 6, md: 4 }}
        cards={fields.map((field) => ({ field: field.name }))}
      />
    </ScreenFrame>
  );
}

export default function PortalInvoiceDetail() {
  return (
    <ShowRecord resource="invoices" meta={{ with: referencesOf(invoices(), true) }}>
      <InvoiceBody />
    </ShowRecord>
  );
}
