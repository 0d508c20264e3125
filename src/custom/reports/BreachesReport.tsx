/**
 * The SLA breaches the service report counts (GET /api/reports/tickets/breaches): the latest first, each
 * ticket a link to it, with the target it breached, when that was due and when it ended, and how many
 * there are in all.
 */
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useCreatePath, useLocaleState, useTranslate } from 'react-admin';
import type { ReportBreaches } from '../../../common/reports.ts';
import { formatDateTime } from '../../../common/format.ts';
import { ScrollableTable } from '../detail/parts.tsx';
import { tickets } from './parts.tsx';
import { Loaded, useReport } from './useReport.tsx';

/** How many the page shows at first, and how many more each "show more": the latest first. */
const SHOWN = 10;
const MORE = 50;
/** The most the API lists. */
const MOST = 500;

export function BreachesReport({ query, headingId }: { query: string; headingId: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const createPath = useCreatePath();
  const [limit, setLimit] = useState(SHOWN);
  const state = useReport<ReportBreaches>(`reports/tickets/breaches?${query}&limit=${limit}`);
  const id = `${headingId}-breaches`;
  const t = (key: string) => translate(`reports.breaches.${key}`);
  const when = (moment: string | null) => (moment === null ? '–' : formatDateTime(moment, locale));

  return (
    <Box component="section" aria-labelledby={id} sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography component="h2" variant="h6" id={id}>
        {t('title')}
      </Typography>
      <Loaded state={state} height={120}>
        {(answer) =>
          answer.total === 0 ? (
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
              {answer.rows.length < Math.min(answer.total, MOST) && (
                <Button size="small" sx={{ m: 1 }} onClick={() => setLimit((n) => Math.min(MOST, n + MORE))}>
                  {t('more')}
                </Button>
              )}
            </Paper>
          )
        }
      </Loaded>
    </Box>
  );
}
