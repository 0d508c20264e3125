/**
 * The user's own exports (issue 6): every list they exported, newest first, with its state and, once the
 * background job is done, the CSV and Excel files to download. While a job waits or is written the
 * page asks again every few seconds, so 'Ready' appears without a reload.
 */
import { useEffect, useId, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import Download from '@mui/icons-material/Download';
import Refresh from '@mui/icons-material/Refresh';
import { useDataProvider, useLocaleState, useNotify, usePermissions, useTranslate } from 'react-admin';
import type { ExportJob, ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { formatDateTime } from '../../../common/format.ts';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { ScrollableTable } from '../detail/parts.tsx';
import { MOBILE_QUERY } from '../list/ListScreen.tsx';
import { saveBlob } from '../saveBlob.ts';

/** How often the page asks again while a job is not finished. */
export const EXPORTS_POLL_MS = 2_000;

// Filled chips whose text keeps a 4.5:1 contrast (MUI's info blue does not).
const STATUS_COLOURS = { queued: 'default', running: 'default', done: 'success', failed: 'error' } as const;

const pending = (jobs: ExportJob[] | undefined) =>
  !!jobs?.some((j) => j.status === 'queued' || j.status === 'running');

export default function ExportsPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const { permissions } = usePermissions();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const headingId = useId();
  const [jobs, setJobs] = useState<ExportJob[] | undefined>(undefined);
  const allowed = Array.isArray(permissions) && permissions.includes('tenant.exports.index');

  /** Bumped to ask the server again (the refresh button, the poll). */
  const [round, setRound] = useState(0);
  const load = () => setRound((n) => n + 1);

  useEffect(() => {
    if (!allowed) return undefined;
    let current = true;
    dataProvider.exportJobs().then(
      (answer) => current && setJobs(answer),
      () => current && setJobs((shown) => shown ?? []),
    );
    return () => {
      current = false;
    };
  }, [allowed, dataProvider, round]);
  const waiting = pending(jobs);
  useEffect(() => {
    if (!waiting) return undefined;
    const timer = setInterval(load, EXPORTS_POLL_MS);
    return () => clearInterval(timer);
  }, [waiting]);

  const title = translate('exports.title');
  const listName = (job: ExportJob) =>
    translate(`resources.${job.model}.name`, { smart_count: 2, _: job.model });
  const requested = (job: ExportJob) => formatDateTime(job.created_at, locale);

  const download = async (job: ExportJob, format: 'csv' | 'xlsx') => {
    try {
      const { blob, fileName } = await dataProvider.exportFile(job.id, format);
      saveBlob(blob, fileName);
    } catch {
      notify('exports.download_failed', { type: 'error' });
    }
  };

  const files = (job: ExportJob) =>
    job.status === 'done' ? (
      <Stack direction="row" spacing={1}>
        {(['csv', 'xlsx'] as const).map((format) => (
          <Button
            key={format}
            size="small"
            variant="outlined"
            startIcon={<Download />}
            onClick={() => void download(job, format)}
            aria-label={translate('exports.download', {
              list: listName(job),
              date: requested(job),
              format: translate(`exports.${format}`),
            })}
          >
            {translate(`exports.${format}`)}
          </Button>
        ))}
      </Stack>
    ) : null;

  const status = (job: ExportJob) => (
    <Chip size="small" color={STATUS_COLOURS[job.status]} label={translate(`exports.status.${job.status}`)} />
  );

  return (
    <Box component="section" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
      <DocumentTitle section={title} />
      <Stack direction="row" alignItems="center" justifyContent="space-between" gap={1}>
        <Typography variant="h5" component="h1" id={headingId}>
          {title}
        </Typography>
        <Button startIcon={<Refresh />} onClick={load} disabled={!allowed}>
          {translate('exports.refresh')}
        </Button>
      </Stack>
      {!allowed ? (
        <Typography>{translate('app.pages.access_denied_text')}</Typography>
      ) : (
        <>
          <Typography>{translate('exports.intro')}</Typography>
          {jobs === undefined ? (
            <Box aria-busy>
              {Array.from({ length: 3 }, (_, i) => (
                <Skeleton key={i} variant="text" height={36} />
              ))}
            </Box>
          ) : jobs.length === 0 ? (
            <Typography>{translate('exports.empty')}</Typography>
          ) : isMobile ? (
            <Stack
              component="ul"
              spacing={1}
              sx={{ listStyle: 'none', p: 0, m: 0 }}
              aria-labelledby={headingId}
            >
              {jobs.map((job) => (
                <Paper component="li" key={job.id} variant="outlined" sx={{ p: 1.5 }}>
                  <Stack direction="row" justifyContent="space-between" alignItems="center" gap={1}>
                    <Typography component="h2" variant="subtitle1">
                      {listName(job)}
                    </Typography>
                    {status(job)}
                  </Stack>
                  <Typography variant="body2">
                    {translate('exports.columns.requested')}: {requested(job)}
                    {job.row_count !== null && ` · ${translate('exports.columns.rows')}: ${job.row_count}`}
                  </Typography>
                  {job.status === 'done' && <Box sx={{ mt: 1 }}>{files(job)}</Box>}
                </Paper>
              ))}
            </Stack>
          ) : (
            <Paper>
              <ScrollableTable labelledBy={headingId}>
                <Table size="small">
                  <caption style={{ captionSide: 'top', textAlign: 'left', padding: '8px 16px' }}>
                    {translate('exports.caption')}
                  </caption>
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate('exports.columns.list')}</TableCell>
                      <TableCell>{translate('exports.columns.requested')}</TableCell>
                      <TableCell>{translate('exports.columns.status')}</TableCell>
                      <TableCell align="right">{translate('exports.columns.rows')}</TableCell>
                      <TableCell>{translate('exports.columns.files')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {jobs.map((job) => (
                      <TableRow key={job.id}>
                        <TableCell>{listName(job)}</TableCell>
                        <TableCell>{requested(job)}</TableCell>
                        <TableCell>{status(job)}</TableCell>
                        <TableCell align="right">{job.row_count ?? ''}</TableCell>
                        <TableCell>{files(job)}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </ScrollableTable>
            </Paper>
          )}
        </>
      )}
    </Box>
  );
}
