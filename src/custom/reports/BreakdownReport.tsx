/**
 * The service report per company, operator, group, priority, type, category or SLA over the period
 * (GET /api/reports/tickets/breakdown): a chart of the busiest and one table of every row, each count a
 * link to exactly those tickets, and the table's files.
 */
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { useLocaleState, useTranslate } from 'react-admin';
import { REPORT_KEYS, type ReportBreakdown, type ReportKey } from '../../../common/reports.ts';
import type { FilterState } from '../list/filters.ts';
import { BreakdownPicker, Count, FiguresTable, inSentence } from './parts.tsx';
import { figureCells, PERIOD_COLUMNS } from './PeriodReport.tsx';
import { ReportFiles } from './ReportFiles.tsx';
import { Loaded, useReport } from './useReport.tsx';

/** How many rows the chart shows: those with the most tickets created (the table has every one). */
const CHART_ROWS = 10;

export function BreakdownReport({
  query,
  filters,
  days,
  headingId,
  by,
  onBy,
}: {
  /** The page's report query (period, group and filters). */
  query: string;
  filters: FilterState;
  days: { from: string; to: string };
  headingId: string;
  /** The key, kept with the page's settings. */
  by: ReportKey;
  onBy: (by: ReportKey) => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const full = `${query}&by=${by}`;
  const state = useReport<ReportBreakdown>(`reports/tickets/breakdown?${full}`);

  const t = (key: string) => translate(`reports.columns.${key}`);
  const keyLabel = (key: ReportKey) => translate(`resources.tickets.fields.${key}`);
  const nameOf = (row: ReportBreakdown['rows'][number]) => row.name ?? t('none');
  const captionOf = (shown: ReportKey) =>
    translate('reports.breakdown_caption', { key: inSentence(keyLabel(shown), locale) });

  /** A row's cells; its counts open the tickets of its key (`shown`: the key of the answer shown). */
  const cells = (
    shown: ReportKey,
    row: ReportBreakdown['total'],
    name: string,
    key: number | null | undefined,
  ) =>
    figureCells(row, (figure) => (
      <Count
        n={row[figure]}
        figure={figure}
        days={days}
        filters={key === undefined ? filters : { ...filters, [shown]: [key] }}
        label={translate('reports.open_list', { period: name, figure: t(figure), n: row[figure] })}
      />
    ));

  return (
    <Stack gap={2}>
      <Typography component="h2" variant="h6" id={`${headingId}-breakdown`}>
        {translate('reports.breakdown_title')}
      </Typography>
      <BreakdownPicker value={by} keys={REPORT_KEYS} labelOf={keyLabel} onChange={onBy} />
      <Loaded state={state} height={160}>
        {(answer) => {
          const shown = answer.by;
          const caption = captionOf(shown);
          const busiest = [...answer.rows].sort((a, b) => b.created - a.created).slice(0, CHART_ROWS);
          return (
            <>
              {busiest.length > 0 && (
                <Paper component="figure" sx={{ m: 0, p: 2 }} aria-labelledby={`${headingId}-busiest`}>
                  <Typography component="h3" variant="subtitle1" id={`${headingId}-busiest`}>
                    {translate('reports.busiest_chart', {
                      key: inSentence(keyLabel(shown), locale),
                      n: busiest.length,
                    })}
                  </Typography>
                  <Box sx={{ minWidth: 0 }}>
                    <BarChart
                      height={80 + busiest.length * 36}
                      layout="horizontal"
                      skipAnimation
                      yAxis={[{ scaleType: 'band', data: busiest.map(nameOf), width: 140 }]}
                      series={[
                        { data: busiest.map((r) => r.created), label: t('created') },
                        { data: busiest.map((r) => r.solved), label: t('solved') },
                      ]}
                    />
                  </Box>
                </Paper>
              )}
              <FiguresTable
                captionId={`${headingId}-breakdown-table`}
                caption={caption}
                actions={
                  <ReportFiles
                    query={`${query}&by=${shown}`}
                    name={caption}
                    file={`report-${shown}-${days.from}-${days.to}`}
                  />
                }
                first={keyLabel(shown)}
                columns={PERIOD_COLUMNS.map((c) => t(c))}
                rows={answer.rows.map((row) => ({
                  key: String(row.key),
                  name: nameOf(row),
                  cells: cells(shown, row, nameOf(row), row.key),
                }))}
                total={{ name: t('total'), cells: cells(shown, answer.total, t('total'), undefined) }}
              />
            </>
          );
        }}
      </Loaded>
    </Stack>
  );
}
