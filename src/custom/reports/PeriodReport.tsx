/**
 * The service report per period (GET /api/reports/tickets): two charts (tickets created, solved and
 * reopened with the backlog; the median first response and resolution) and one table of the same
 * numbers, which screen readers and keyboards read; its counts open the ticket list with exactly those
 * tickets.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useLocaleState, useTranslate } from 'react-admin';
import { metPercent, type ReportAnswer, type ReportFigures } from '../../../common/reports.ts';
import { minutesText } from './period.ts';
import type { FilterState } from '../list/filters.ts';
import { Count, FiguresTable, percentText, periodLabel, type DrillFigure } from './parts.tsx';
import { ReportFiles } from './ReportFiles.tsx';

/** The table's columns after the period's name, in order. */
export const PERIOD_COLUMNS = [
  'created',
  'solved',
  'reopened',
  'backlog',
  'responded',
  'response_median',
  'response_p90',
  'response_met',
  'resolution_median',
  'resolution_p90',
  'resolution_met',
] as const;

const hours = (minutes: number | null) => (minutes === null ? null : Math.round(minutes / 6) / 10);

/** A row's cells in PERIOD_COLUMNS' order; `count` makes a figure a link to its tickets. */
export function figureCells(r: ReportFigures, count: (figure: DrillFigure) => ReactNode): ReactNode[] {
  return [
    count('created'),
    count('solved'),
    r.reopened,
    r.backlog ?? '–',
    count('responded'),
    minutesText(r.response_median),
    minutesText(r.response_p90),
    percentText(metPercent(r.response_met, r.response_breached)),
    minutesText(r.resolution_median),
    minutesText(r.resolution_p90),
    percentText(metPercent(r.resolution_met, r.resolution_breached)),
  ];
}

export function PeriodReport({
  answer,
  filters,
  query,
  headingId,
}: {
  answer: ReportAnswer;
  filters: FilterState;
  /** The report's query string, for its files. */
  query: string;
  headingId: string;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const t = (key: string) => translate(`reports.columns.${key}`);
  const labels = answer.rows.map((row) => periodLabel(row, answer.group, locale));

  /** A row's cells; its counts open the tickets they count (the row's days). */
  const cells = (r: ReportFigures, days: { from: string; to: string }, name: string) =>
    figureCells(r, (figure) => (
      <Count
        n={r[figure]}
        figure={figure}
        days={days}
        filters={filters}
        label={translate('reports.open_list', { period: name, figure: t(figure), n: r[figure] })}
      />
    ));

  return (
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
              { data: answer.rows.map((r) => r.reopened), label: t('reopened') },
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
      <FiguresTable
        captionId={`${headingId}-table`}
        caption={translate('reports.caption')}
        actions={
          <ReportFiles
            query={query}
            name={translate('reports.caption')}
            file={`report-${answer.from}-${answer.to}`}
          />
        }
        first={t('period')}
        columns={PERIOD_COLUMNS.map((c) => t(c))}
        rows={answer.rows.map((row, i) => ({
          key: row.period,
          name: labels[i]!,
          cells: cells(row, row, labels[i]!),
        }))}
        total={{ name: t('total'), cells: cells(answer.total, answer, t('total')) }}
      />
    </>
  );
}
