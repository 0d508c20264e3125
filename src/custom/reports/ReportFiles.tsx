/**
 * A report's files (GET /api/reports/tickets/export, /api/reports/time/export): the figures shown as
 * CSV or Excel, with headers in the user's language, to compute with.
 */
import { useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Download from '@mui/icons-material/Download';
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { saveBlob } from '../saveBlob.ts';

const FORMATS = ['csv', 'xlsx'] as const;

/**
 * `path`: the report's files' route; `file`: the file's name without its extension (the server's own
 * name for it).
 */
export function ReportFiles({
  path = 'reports/tickets/export',
  query,
  name,
  file,
}: {
  path?: string;
  query: string;
  name: string;
  file: string;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const [busy, setBusy] = useState(false);
  const download = async (format: (typeof FORMATS)[number]) => {
    setBusy(true);
    try {
      const url = `${path}?${query}&format=${format}&locale=${locale}`;
      const blob = await dataProvider.call<Blob>('GET', url, { responseType: 'blob' });
      saveBlob(blob, `${file}.${format}`);
    } catch {
      notify('reports.download_failed', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ py: 0.5 }}>
      {FORMATS.map((format) => (
        <Button
          key={format}
          size="small"
          startIcon={<Download />}
          disabled={busy}
          onClick={() => void download(format)}
          aria-label={translate('reports.download', { report: name, format: translate(`exports.${format}`) })}
        >
          {translate(`exports.${format}`)}
        </Button>
      ))}
    </Stack>
  );
}
