import { useState } from 'react';
import { useDataProvider, useNotify, type RaRecord } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { registry } from '../../schema.ts';

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
      setBusy(false);
    }
  };
  return { download, busy };
}
