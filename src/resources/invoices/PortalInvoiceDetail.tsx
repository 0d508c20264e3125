/**
 * The portal's invoice download (SPEC 2: 'download link', needs invoices.download or invoices.show). The
 * generic list has no per-resource row action and the overrides serve only detail and create screens, so
 * the download lives on the invoice the list row opens (/app/invoices/{id}): the invoice's fields as cards
 * and a download button for the PDF (POST /api/invoices/{id}/download, saved as '{code}.pdf').
 */
import { useEffect, useState } from 'react';
import { Box, Button, Card, CardContent, Grid, Typography } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import {
  ShowBase,
  useCanAccess,
  useDataProvider,
  useNotify,
  useShowContext,
  useTranslate,
} from 'react-admin';
import { readableFieldsFor } from '../../../common/schema/fields.ts';
import { registry } from '../../schema.ts';
import { referencesOf } from '../../custom/detail/DetailScreen.tsx';
import { FieldDisplay } from '../fieldTypes.tsx';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { RELOAD_EVENT } from '../../dataProvider/reload.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';

const invoices = () => registry.require('invoices');

function InvoiceBody() {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const { record, refetch, isPending } = useShowContext();
  const { canAccess: canDownload } = useCanAccess({ resource: 'invoices', action: 'download' });
  const { canAccess: canShow } = useCanAccess({ resource: 'invoices', action: 'show' });
  const [downloading, setDownloading] = useState(false);

  useEffect(() => {
    const reload = () => void refetch();
    window.addEventListener(RELOAD_EVENT, reload);
    return () => window.removeEventListener(RELOAD_EVENT, reload);
  }, [refetch]);

  if (isPending || !record) return null;
  const resource = invoices();
  const typeName = translate(`resources.${resource.name}.name`, { smart_count: 1, _: resource.title });
  const label = String(record[resource.label] ?? record.id);
  const title = translate('app.title.record', { label, type: typeName });
  const fields = readableFieldsFor(resource, true).filter((f) => f.name !== 'id');

  const download = async () => {
    setDownloading(true);
    try {
      const blob = await dataProvider.recordDownload(resource.name, record.id);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${label}.pdf`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch {
      notify('app.errors.download_failed', { type: 'error' });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <DocumentTitle section={title} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 2 }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        {(canDownload || canShow) && (
          <Button
            startIcon={<DownloadIcon />}
            variant="outlined"
            onClick={download}
            disabled={downloading}
            aria-label={translate('app.invoices.download_label', { code: label })}
          >
            {translate('app.invoices.download')}
          </Button>
        )}
      </Box>
      <Grid container spacing={2}>
        {fields.map((field) => (
          <Grid key={field.name} size={{ xs: 12, sm: 6, md: 4 }}>
            <Card sx={{ height: '100%' }}>
              <CardContent component="dl" sx={{ m: 0 }}>
                <Typography component="dt" variant="body2" color="text.secondary">
                  {translate(`resources.${resource.name}.fields.${field.name}`, { _: field.name })}
                </Typography>
                <Typography component="dd" variant="h6" sx={{ m: 0 }}>
                  <FieldDisplay resource={resource} field={field} record={record} full />
                </Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}

export default function PortalInvoiceDetail() {
  return (
    <ShowBase resource="invoices" queryOptions={{ meta: { with: referencesOf(invoices(), true) } }}>
      <InvoiceBody />
    </ShowBase>
  );
}
