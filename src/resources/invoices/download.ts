import { useState } from 'react';
import { useDataProvider, useNotify, type RaRecord } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { registry } from '../../schema.ts';
import { saveBlob } from '../../custom/saveBlob.ts';

/** Saves an invoice's PDF (POST /api/invoices/{id}/download) as '{code}.pdf': from the list and the detail. */
export function useInvoiceDownload() {
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const download = async (record: RaRecord) => {
    const resource = registry.require('invoices');
    const label = String(record[resource.label] ?? record.id);
    setBusy(true);
    try {
      const blob = await dataProvider.recordDownload(resource.name, record.id);
      saveBlob(blob, `${label}.pdf`);
    } catch {
      notify('app.errors.download_failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return { download, busy };
}
