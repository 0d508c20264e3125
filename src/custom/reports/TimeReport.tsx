/**
 * Time logged (GET /api/reports/time and /api/reports/time/breakdown): billable and not per period as a
 * chart and a table, then per company, operator, contract or activity as a table, each with its files.
 * Times are hours and minutes, rounded as they are invoiced and taken off contracts (`minutes` is the
 * time as registered).
 */
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { useLocaleState, useTranslate } from 'react-admin';
import {
  TIME_KEYS,
  type TimeBreakdown,
  type TimeFigures,
  type TimeKey,
  type TimeReportAnswer,
} from '../../../common/time-report.ts';
import { minutesText } from './period.ts';
import { BreakdownPicker, FiguresTable, inSentence, periodLabel } from './parts.tsx';
import { ReportFiles } from './ReportFiles.tsx';
import { Loaded, useReport } from './useReport.tsx';

const COLUMNS = [
  ['time_minutes', 'minutes'],
  ['time_rounded', 'rounded_minutes'],
  ['time_billable', 'billable_minutes'],
  ['time_non_billable', 'non_billable_minutes'],
  ['time_contract', 'contract_minutes'],
] as const;

const cells = (f: TimeFigures) => [...COLUMNS.map(([, m]) => minutesText(f[m])), f.registrations];
const hours = (minutes: number) => Math.round(minutes / 6) / 10;

export function TimeReport({
  query,
  headingId,
  by,
  onBy,
}: {
  /** The time report's query: the period, its grouping, the line and the company and operator filters. */
  query: string;
  headingId: string;
  by: TimeKey;
  onBy: (by: TimeKey) => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const t = (key: string) => translate(`reports.columns.${key}`);
  const periods = useReport<TimeReportAnswer>(`reports/time?${query}`);
  const perKey = useReport<TimeBreakdown>(`reports/time/breakdown?${query}&by=${by}`);
  const columns = [...COLUMNS.map(([label]) => t(label)), t('time_registrations')];

  return (
    <Stack gap={2}>
      <Loaded state={periods} height={240}>
        {(answer) => {
          const labels = answer.rows.map((row) => periodLabel(row, answer.group, locale));
          const caption = translate('reports.time.caption');
          return (
            <>
              <Paper component="figure" sx={{ m: 0, p: 2 }} aria-labelledby={`${headingId}-time`}>
                <Typography component="h2" variant="h6" id={`${headingId}-time`}>
                  {translate('reports.time.chart')}
                </Typography>
                <Box sx={{ minWidth: 0 }}>
                  <BarChart
                    height={260}
                    skipAnimation
                    xAxis={[{ scaleType: 'band', data: labels }]}
                    series={[
                      {
                        data: answer.rows.map((r) => hours(r.billable_minutes)),
                        label: t('time_billable'),
                        stack: 'time',
                      },
                      {
                        data: answer.rows.map((r) => hours(r.non_billable_minutes)),
                        label: t('time_non_billable'),
                        stack: 'time',
                      },
                    ]}
                  />
                </Box>
              </Paper>
              <FiguresTable
                captionId={`${headingId}-time-table`}
                caption={caption}
                actions={
                  <ReportFiles
                    path="reports/time/export"
                    query={query}
                    name={caption}
                    file={`time-${answer.from}-${answer.to}`}
                  />
                }
                first={t('period')}
                columns={columns}
                rows={answer.rows.map((row, i) => ({ key: row.period, name: labels[i]!, cells: cells(row) }))}
                total={{ name: t('total'), cells: cells(answer.total) }}
              />
            </>
          );
        }}
      </Loaded>
      <BreakdownPicker value={by} keys={TIME_KEYS} labelOf={(key) => t(`time_${key}`)} onChange={onBy} />
      <Loaded state={perKey} height={160}>
        {(answer) => {
          const caption = translate('reports.time.breakdown_caption', {
            key: inSentence(t(`time_${answer.by}`), locale),
          });
          return (
            <FiguresTable
              captionId={`${headingId}-time-breakdown`}
              caption={caption}
              actions={
                <ReportFiles
                  path="reports/time/export"
                  query={`${query}&by=${answer.by}`}
                  name={caption}
                  file={`time-${answer.by}-${answer.from}-${answer.to}`}
                />
              }
              first={t(`time_${answer.by}`)}
              columns={columns}
              rows={answer.rows.map((row) => ({
                key: String(row.key),
                name: row.name ?? t('none'),
                cells: cells(row),
              }))}
              total={{ name: t('total'), cells: cells(answer.total) }}
            />
          );
        }}
      </Loaded>
    </Stack>
  );
}
