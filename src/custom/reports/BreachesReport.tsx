/**
 * The SLA breaches the service report counts (GET /api/reports/tickets/breaches): the latest first, each
 * ticket a link to it, with the target it breached, when that was due and when it ended, and how many
 * there are in all.
 */
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useCreatePath, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import type { ReportBreaches } from '../../../common/reports.ts';
import { formatDateTime } from '../../../common/format.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { ScrollableTable } from '../detail/parts.tsx';
import { tickets } from './parts.tsx';

/** How many the page shows: the latest; the count says how many there are. */
const SHOWN = 50;

export function BreachesReport({ query, headingId }: { query: string; headingId: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const createPath = useCreatePath();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const [state, setState] = useState<{ answer?: ReportBreaches; query?: string; failed?: boolean }>({});
  const [round, setRound] = useState(0);

  useEffect(() => {
    let current = true;
    dataProvider.call<ReportBreaches>('GET', `reports/tickets/breaches?${query}&limit=${SHOWN}`).then(
      (answer) => current && setState({ answer, query }),
      () => current && setState((shown) => ({ ...shown, failed: true })),
    );
    return () => {
      current = false;
    };
  }, [dataProvider, query, round]);

  const answer = state.query === query ? state.answer : undefined;
  const id = `${headingId}-breaches`;
  const t = (key: string) => translate(`reports.breaches.${key}`);
  const when = (moment: string | null) => (moment === null ? '–' : formatDateTime(moment, locale));

  return (
    <Box component="section" aria-labelledby={id} sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography component="h2" variant="h6" id={id}>
        {t('title')}
      </Typography>
      {state.failed && !answer ? (
        <LoadFailed text="reports.failed" onRetry={() => setRound((n) => n + 1)} />
      ) : !answer ? (
        <Box aria-busy>
          <Skeleton variant="rectangular" height={120} />
        </Box>
      ) : answer.total === 0 ? (
        <Typography>{t('none')}</Typography>
      ) : (
        <Paper>
          <Typography sx={{ px: 2, pt: 1 }} id={`${id}-caption`}>
            {translate('reports.breaches.shown', {
              shown: answer.rows.length,
              total: answer.total,
              smart_count: answer.total,
            })}
          </Typography>
          <ScrollableTable labelledBy={`${id}-caption`}>
            <Table size="small" aria-labelledby={`${id}-caption`}>
              <TableHead>
                <TableRow>
                  {['ticket', 'company', 'operator', 'target', 'due', 'ended'].map((c) => (
                    <TableCell key={c}>{t(c)}</TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {answer.rows.map((row) => (
                  <TableRow key={`${row.ticket_id}-${row.target}`}>
                    <TableCell component="th" scope="row">
                      <Link
                        component={RouterLink}
                        to={createPath({ resource: tickets.name, id: row.ticket_id, type: 'show' })}
                      >
                        {row.reference ?? `#${row.ticket_id}`}
                      </Link>
                    </TableCell>
                    <TableCell>{row.company ?? '–'}</TableCell>
                    <TableCell>{row.operator ?? '–'}</TableCell>
                    <TableCell>{t(`targets.${row.target}`)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(row.due)}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{when(row.ended)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ScrollableTable>
        </Paper>
      )}
    </Box>
  );
}
