/**
 * The operator's dashboard (issue 18): how many tickets are open, overdue, due today, waiting for the
 * client, replied by the client and new today, for the operator, for nobody and for each operator line,
 * from one call (GET /api/dashboard). Every figure is a link to the ticket list filtered to exactly
 * those tickets (./figures.ts). The figures are asked again whenever the page is shown again: opened,
 * returned to in the browser tab, or refreshed.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
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
import Refresh from '@mui/icons-material/Refresh';
import { useDataProvider, useTranslate } from 'react-admin';
import {
  DASHBOARD_COUNTS,
  LINE_OF_ROW,
  type DashboardAnswer,
  type DashboardCount,
  type DashboardRow,
} from '../../../common/dashboard.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { toQueryString } from '../../dataProvider/builder.ts';
import { onReload } from '../../dataProvider/reload.ts';
import { getUser } from '../../dataProvider/storage.ts';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { ScrollableTable } from '../detail/parts.tsx';
import { MOBILE_QUERY } from '../list/ListScreen.tsx';
import { listLink } from '../list/linkedFilter.ts';
import { figureFilter, TICKETS_PATH, todayBounds } from './figures.ts';

type State = { answer?: DashboardAnswer; failed?: boolean; forbidden?: boolean };

function useDashboard(): [State, () => void] {
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const [state, setState] = useState<State>({});
  const [round, setRound] = useState(0);
  const load = useCallback(() => setRound((n) => n + 1), []);
  useEffect(() => {
    let current = true;
    dataProvider.call<DashboardAnswer>('GET', `dashboard?${toQueryString(todayBounds(new Date()))}`).then(
      (answer) => current && setState({ answer }),
      (error: { status?: number }) =>
        current && setState(error?.status === 403 ? { forbidden: true } : { failed: true }),
    );
    return () => {
      current = false;
    };
  }, [dataProvider, round]);
  // Shown again: the browser tab comes back, or the app's reload button is pressed.
  useEffect(() => {
    const visible = () => document.visibilityState === 'visible' && load();
    document.addEventListener('visibilitychange', visible);
    const stop = onReload(load);
    return () => {
      document.removeEventListener('visibilitychange', visible);
      stop();
    };
  }, [load]);
  return [state, load];
}

/** A figure: a link to its list, or the bare number when no filter can say it (./figures.ts). */
function Figure({
  answer,
  row,
  count,
  label,
}: {
  answer: DashboardAnswer;
  row: DashboardRow;
  count: DashboardCount;
  label: string;
}) {
  const value = row.counts[count];
  const filter = figureFilter(answer, row, count);
  const alarming = count === 'overdue' && value > 0;
  const sx = {
    fontWeight: alarming ? 700 : 500,
    fontSize: '1.1rem',
    color: alarming ? 'error.dark' : undefined,
  };
  if (!filter) return <Typography sx={sx}>{value}</Typography>;
  return (
    <Link component={RouterLink} to={listLink(TICKETS_PATH, filter)} aria-label={label} sx={sx}>
      {value}
    </Link>
  );
}

export default function DashboardPage() {
  const translate = useTranslate();
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const headingId = useId();
  const [{ answer, failed, forbidden }, load] = useDashboard();
  const ownLine = getUser()?.is_operator;

  const title = translate('dashboard.title');
  const rowName = (row: DashboardRow) => translate(`dashboard.rows.${row.key}`);
  const countName = (count: DashboardCount) => translate(`dashboard.counts.${count}`);
  const isOwnLine = (row: DashboardRow) =>
    LINE_OF_ROW[row.key] !== undefined && LINE_OF_ROW[row.key] === ownLine;
  const figureLabel = (row: DashboardRow, count: DashboardCount) =>
    translate('dashboard.figure', { row: rowName(row), count: countName(count), n: row.counts[count] });
  const ownTeam = (row: DashboardRow) =>
    isOwnLine(row) ? (
      <>
        {' '}
        <Typography component="span" variant="body2" sx={{ ml: 0.5, color: 'text.secondary' }}>
          {translate('dashboard.own_team')}
        </Typography>
      </>
    ) : null;

  const body = forbidden ? (
    <Typography>{translate('app.pages.access_denied_text')}</Typography>
  ) : failed && !answer ? (
    <LoadFailed text="dashboard.failed" onRetry={load} />
  ) : !answer ? (
    <Box aria-busy>
      {Array.from({ length: 5 }, (_, i) => (
        <Skeleton key={i} variant="text" height={40} />
      ))}
    </Box>
  ) : isMobile ? (
    <Stack spacing={1.5}>
      {answer.rows.map((row) => (
        <Paper key={row.key} variant="outlined" sx={{ p: 1.5 }} component="section" aria-label={rowName(row)}>
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600 }}>
            {rowName(row)}
            {ownTeam(row)}
          </Typography>
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
            {DASHBOARD_COUNTS.map((count) => (
              <Box
                component="li"
                key={count}
                sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', py: 0.25 }}
              >
                <Typography component="span">{countName(count)}</Typography>
                <Figure answer={answer} row={row} count={count} label={figureLabel(row, count)} />
              </Box>
            ))}
          </Box>
        </Paper>
      ))}
    </Stack>
  ) : (
    <Paper>
      <ScrollableTable labelledBy={headingId}>
        <Table size="small">
          <caption style={{ captionSide: 'top', textAlign: 'left', padding: '8px 16px' }}>
            {translate('dashboard.caption')}
          </caption>
          <TableHead>
            <TableRow>
              <TableCell>{translate('dashboard.whose')}</TableCell>
              {DASHBOARD_COUNTS.map((count) => (
                <TableCell key={count} align="right">
                  {countName(count)}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {answer.rows.map((row) => (
              <TableRow key={row.key}>
                <TableCell component="th" scope="row">
                  {rowName(row)}
                  {ownTeam(row)}
                </TableCell>
                {DASHBOARD_COUNTS.map((count) => (
                  <TableCell key={count} align="right">
                    <Figure answer={answer} row={row} count={count} label={figureLabel(row, count)} />
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ScrollableTable>
    </Paper>
  );

  return (
    <Box component="section" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
      <DocumentTitle section={title} />
      <Stack direction="row" alignItems="center" justifyContent="space-between" gap={1}>
        <Typography variant="h5" component="h1" id={headingId}>
          {title}
        </Typography>
        <Button startIcon={<Refresh />} onClick={load}>
          {translate('dashboard.refresh')}
        </Button>
      </Stack>
      <Typography>{translate('dashboard.intro')}</Typography>
      {body}
    </Box>
  );
}
