/**
 * The service report (issue 36, item 1) at /reports: over a period the user picks, per day, week or
 * month, the tickets created and solved, the backlog, and the median first response and resolution in
 * business time with the share of SLA targets met (GET /api/reports/tickets), for the companies,
 * operators, groups and priorities chosen with the ticket list's own header controls. The charts have
 * one table of the same numbers below them, which screen readers and keyboards read; its counts open
 * the ticket list with exactly those tickets. For operators with tenant.reports.index (second line by
 * default).
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useDataProvider, useLocaleState, usePermissions, useTranslate } from 'react-admin';
import {
  metPercent,
  REPORT_GROUPS,
  REPORTS_PERMISSION,
  type ReportAnswer,
  type ReportGroup,
} from '../../../common/reports.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { toQueryString } from '../../dataProvider/builder.ts';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { ScrollableTable } from '../detail/parts.tsx';
import { FilterControl } from '../../resources/fields/FilterControl.tsx';
import { minutesText, PERIOD_PRESETS, presetRange, type PeriodPreset } from './period.ts';
import type { FilterState } from '../list/filters.ts';
import { chosen, Count, DRILL_DOWN, PAGE_FILTERS, percentText, periodLabel, tickets } from './parts.tsx';

export default function ReportsPage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { permissions } = usePermissions();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const headingId = useId();
  const [preset, setPreset] = useState<PeriodPreset>('this_month');
  const [custom, setCustom] = useState(() => presetRange('this_month', new Date()));
  const [group, setGroup] = useState<ReportGroup>('week');
  const [filters, setFilters] = useState<FilterState>({});
  const ids = chosen(filters);
  const [state, setState] = useState<{ answer?: ReportAnswer; failed?: boolean }>({});
  const [round, setRound] = useState(0);
  const allowed = Array.isArray(permissions) && permissions.includes(REPORTS_PERMISSION);
  const { from, to } = preset === 'custom' ? custom : presetRange(preset, new Date());
  const query = toQueryString({ from, to, group, ...ids });

  useEffect(() => {
    if (!allowed || !from || !to || to < from) return undefined;
    let current = true;
    dataProvider.call<ReportAnswer>('GET', `reports/tickets?${query}`).then(
      (answer) => current && setState({ answer }),
      () => current && setState((shown) => ({ ...shown, failed: true })),
    );
    return () => {
      current = false;
    };
  }, [allowed, dataProvider, from, to, query, round]);

  const title = translate('reports.title');
  const answer = state.answer;
  const labels = answer?.rows.map((row) => periodLabel(row, answer.group, locale)) ?? [];
  const t = (key: string) => translate(`reports.columns.${key}`);
  const hours = (minutes: number | null) => (minutes === null ? null : Math.round(minutes / 6) / 10);

  const controls = (
    <Stack direction={{ xs: 'column', sm: 'row' }} gap={2} flexWrap="wrap">
      <TextField
        select
        size="small"
        label={translate('reports.period')}
        value={preset}
        onChange={(e) => setPreset(e.target.value as PeriodPreset)}
        sx={{ minWidth: 200 }}
      >
        {PERIOD_PRESETS.map((p) => (
          <MenuItem key={p} value={p}>
            {translate(`reports.presets.${p}`)}
          </MenuItem>
        ))}
      </TextField>
      {preset === 'custom' &&
        (['from', 'to'] as const).map((bound) => (
          <TextField
            key={bound}
            type="date"
            size="small"
            label={translate(`reports.${bound}`)}
            value={custom[bound]}
            onChange={(e) => setCustom((c) => ({ ...c, [bound]: e.target.value }))}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        ))}
      <TextField
        select
        size="small"
        label={translate('reports.group')}
        value={group}
        onChange={(e) => setGroup(e.target.value as ReportGroup)}
        sx={{ minWidth: 160 }}
      >
        {REPORT_GROUPS.map((g) => (
          <MenuItem key={g} value={g}>
            {translate(`reports.groups.${g}`)}
          </MenuItem>
        ))}
      </TextField>
      {PAGE_FILTERS.map((key) => (
        <Box key={key} sx={{ minWidth: 180, flex: 1 }}>
          <FilterControl
            resource={tickets}
            field={tickets.fields[key]!}
            label={translate(`resources.tickets.fields.${key}`)}
            value={filters[key]}
            onChange={(value) => setFilters((f) => ({ ...f, [key]: value }))}
          />
        </Box>
      ))}
    </Stack>
  );

  /** A row's cells; its counts open the tickets they count (the row's days). */
  const cells = (r: ReportAnswer['total'], days: { from: string; to: string }, name: string): ReactNode[] => {
    const count = (figure: keyof typeof DRILL_DOWN) => (
      <Count
        n={r[figure]}
        figure={figure}
        days={days}
        filters={filters}
        label={translate('reports.open_list', { period: name, figure: t(figure), n: r[figure] })}
      />
    );
    return [
      count('created'),
      count('solved'),
      r.backlog ?? '–',
      count('responded'),
      minutesText(r.response_median),
      minutesText(r.response_p90),
      percentText(metPercent(r.response_met, r.response_breached)),
      minutesText(r.resolution_median),
      minutesText(r.resolution_p90),
      percentText(metPercent(r.resolution_met, r.resolution_breached)),
    ];
  };
  const COLUMNS = [
    'created',
    'solved',
    'backlog',
    'responded',
    'response_median',
    'response_p90',
    'response_met',
    'resolution_median',
    'resolution_p90',
    'resolution_met',
  ];

  const body = !allowed ? (
    <Typography>{translate('app.pages.access_denied_text')}</Typography>
  ) : state.failed && !answer ? (
    <LoadFailed text="reports.failed" onRetry={() => setRound((n) => n + 1)} />
  ) : !answer ? (
    <Box aria-busy>
      <Skeleton variant="rectangular" height={240} />
    </Box>
  ) : (
    <>
      <Paper component="figure" sx={{ m: 0, p: 2 }} aria-labelledby={`${headingId}-tickets`}>
        <Typography component="h2" variant="h6" id={`${headingId}-tickets`}>
          {translate('reports.tickets_chart')}
        </Typography>
        <Box sx={{ minWidth: 0 }}>
          <BarChart
            height={260}
            skipAnimation
            xAxis={[{ scaleType: 'band', data: labels }]}
            series={[
              { data: answer.rows.map((r) => r.created), label: t('created') },
              { data: answer.rows.map((r) => r.solved), label: t('solved') },
              { data: answer.rows.map((r) => r.backlog), label: t('backlog') },
            ]}
          />
        </Box>
        <Typography component="h2" variant="h6" id={`${headingId}-times`} sx={{ mt: 2 }}>
          {translate('reports.times_chart')}
        </Typography>
        <Box sx={{ minWidth: 0 }}>
          <LineChart
            height={260}
            skipAnimation
            xAxis={[{ scaleType: 'point', data: labels }]}
            yAxis={[{ min: 0 }]}
            series={[
              {
                data: answer.rows.map((r) => hours(r.response_median)),
                label: t('response_median'),
                showMark: true,
              },
              {
                data: answer.rows.map((r) => hours(r.resolution_median)),
                label: t('resolution_median'),
                showMark: true,
              },
            ]}
          />
        </Box>
      </Paper>
      <Paper>
        <ScrollableTable labelledBy={`${headingId}-table`}>
          <Table size="small">
            <caption
              id={`${headingId}-table`}
              style={{ captionSide: 'top', textAlign: 'left', padding: '8px 16px' }}
            >
              {translate('reports.caption')}
            </caption>
            <TableHead>
              <TableRow>
                <TableCell>{t('period')}</TableCell>
                {COLUMNS.map((c) => (
                  <TableCell key={c} align="right">
                    {t(c)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {answer.rows.map((row, i) => (
                <TableRow key={row.period}>
                  <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
                    {labels[i]}
                  </TableCell>
                  {cells(row, row, labels[i]!).map((value, c) => (
                    <TableCell key={COLUMNS[c]} align="right">
                      {value}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
              <TableRow sx={{ '& > *': { fontWeight: 600 } }}>
                <TableCell component="th" scope="row">
                  {t('total')}
                </TableCell>
                {cells(answer.total, answer, t('total')).map((value, c) => (
                  <TableCell key={COLUMNS[c]} align="right">
                    {value}
                  </TableCell>
                ))}
              </TableRow>
            </TableBody>
          </Table>
        </ScrollableTable>
      </Paper>
      <Typography variant="body2" color="text.secondary">
        {translate('reports.explained')}
      </Typography>
    </>
  );

  return (
    <Box component="section" sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
      <DocumentTitle section={title} />
      <Typography variant="h5" component="h1" id={headingId}>
        {title}
      </Typography>
      <Typography>{translate('reports.intro')}</Typography>
      {allowed && controls}
      {body}
    </Box>
  );
}
