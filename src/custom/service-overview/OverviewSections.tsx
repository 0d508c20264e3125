/**
 * The service overview's three parts (issue 36, item 3), each a chart with the table of its numbers
 * (which screen readers and keyboards read): tickets opened and solved per month; the median first
 * response and resolution with the share within the SLA target, and the targets promised per priority;
 * the hours used and remaining of the current contract periods and prepaid cards. The back office
 * report's table and formats (../reports) are reused.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useLocaleState, useTranslate } from 'react-admin';
import { metPercent } from '../../../common/reports.ts';
import type { OverviewFigures, ServiceOverview } from '../../../common/service-overview.ts';
import { FiguresTable, percentText, periodLabel } from '../reports/parts.tsx';
import { minutesText } from '../reports/period.ts';
import { ScrollableTable } from '../detail/parts.tsx';

const hours = (minutes: number | null) => (minutes === null ? null : Math.round(minutes / 6) / 10);

/** The share within the target, or '–' (nothing promised, or the desk shows no SLA figures). */
const share = (met: number | null, breached: number | null) =>
  met === null || breached === null ? '–' : percentText(metPercent(met, breached));

function useTexts() {
  const translate = useTranslate();
  return {
    translate,
    t: (key: string) => translate(`service_overview.${key}`),
    c: (key: string) => translate(`service_overview.columns.${key}`),
  };
}

function Figure({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper component="figure" sx={{ m: 0, p: 2, minWidth: 0 }} aria-labelledby={id}>
      <Typography component="h3" variant="subtitle1" id={id}>
        {title}
      </Typography>
      <Box sx={{ minWidth: 0 }}>{children}</Box>
    </Paper>
  );
}

export function TicketsSection({ answer, id }: { answer: ServiceOverview; id: string }) {
  const { t, c } = useTexts();
  const [locale] = useLocaleState();
  const labels = answer.months.map((m) => periodLabel({ period: m.month }, 'month', locale));
  return (
    <>
      <Figure id={`${id}-chart`} title={t('tickets_chart')}>
        <BarChart
          height={240}
          skipAnimation
          xAxis={[{ scaleType: 'band', data: labels }]}
          series={[
            { data: answer.months.map((m) => m.opened), label: c('opened') },
            { data: answer.months.map((m) => m.solved), label: c('solved') },
          ]}
        />
      </Figure>
      <FiguresTable
        captionId={`${id}-table`}
        caption={t('tickets_caption')}
        first={c('month')}
        columns={[c('opened'), c('solved')]}
        rows={answer.months.map((m, i) => ({ key: m.month, name: labels[i]!, cells: [m.opened, m.solved] }))}
        total={{ name: c('total'), cells: [answer.total.opened, answer.total.solved] }}
      />
    </>
  );
}

const timeCells = (f: OverviewFigures) => [
  minutesText(f.response_median),
  share(f.response_met, f.response_breached),
  minutesText(f.resolution_median),
  share(f.resolution_met, f.resolution_breached),
];

export function TimesSection({ answer, id }: { answer: ServiceOverview; id: string }) {
  const { t, c } = useTexts();
  const [locale] = useLocaleState();
  const labels = answer.months.map((m) => periodLabel({ period: m.month }, 'month', locale));
  const sla = answer.targets !== null;
  const columns = ['response_median', 'response_met', 'resolution_median', 'resolution_met'];
  // Without SLA figures (the desk's choice) the shares within the target are left out.
  const shown = (cells: string[]) => (sla ? cells : [cells[0]!, cells[2]!]);
  return (
    <>
      <Figure id={`${id}-chart`} title={t('times_chart')}>
        <LineChart
          height={240}
          skipAnimation
          xAxis={[{ scaleType: 'point', data: labels }]}
          yAxis={[{ min: 0 }]}
          series={[
            {
              data: answer.months.map((m) => hours(m.response_median)),
              label: c('response_median'),
              showMark: true,
            },
            {
              data: answer.months.map((m) => hours(m.resolution_median)),
              label: c('resolution_median'),
              showMark: true,
            },
          ]}
        />
      </Figure>
      <FiguresTable
        captionId={`${id}-table`}
        caption={t('times_caption')}
        first={c('month')}
        columns={shown(columns.map(c))}
        rows={answer.months.map((m, i) => ({ key: m.month, name: labels[i]!, cells: shown(timeCells(m)) }))}
        total={{ name: c('total'), cells: shown(timeCells(answer.total)) }}
      />
      {answer.targets && <TargetsTable targets={answer.targets} id={`${id}-targets`} />}
    </>
  );
}

function TargetsTable({ targets, id }: { targets: NonNullable<ServiceOverview['targets']>; id: string }) {
  const { t, c } = useTexts();
  return (
    <Paper sx={{ minWidth: 0 }}>
      <Typography component="h3" variant="subtitle1" id={id} sx={{ px: 2, pt: 1 }}>
        {t('targets_title')}
      </Typography>
      {targets.length === 0 ? (
        <Typography sx={{ px: 2, pb: 2 }}>{t('targets_none')}</Typography>
      ) : (
        <ScrollableTable labelledBy={id}>
          <Table size="small" aria-label={t('targets_caption')}>
            <TableHead>
              <TableRow>
                <TableCell>{c('priority')}</TableCell>
                <TableCell align="right">{c('response_time')}</TableCell>
                <TableCell align="right">{c('resolution_time')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {targets.map((target) => (
                <TableRow key={`${target.priority_id}:${target.response_time}:${target.resolution_time}`}>
                  <TableCell component="th" scope="row">
                    {target.priority ?? c('no_priority')}
                  </TableCell>
                  <TableCell align="right">{minutesText(target.response_time)}</TableCell>
                  <TableCell align="right">{minutesText(target.resolution_time)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollableTable>
      )}
    </Paper>
  );
}

export function ContractsSection({ answer, id }: { answer: ServiceOverview; id: string }) {
  const { t, c } = useTexts();
  if (answer.contracts.length === 0) return <Typography>{t('contracts_none')}</Typography>;
  const names = answer.contracts.map((r) => r.contract_name);
  const period = (r: ServiceOverview['contracts'][number]) =>
    r.prepaid ? c('prepaid') : `${r.period_start} – ${r.period_end ?? '…'}`;
  const sum = (key: 'minutes_total' | 'registered_time' | 'minutes_remaining') =>
    answer.contracts.reduce((n, r) => n + r[key], 0);
  return (
    <>
      <Figure id={`${id}-chart`} title={t('contracts_chart')}>
        <BarChart
          height={Math.max(160, 60 + 48 * answer.contracts.length)}
          skipAnimation
          layout="horizontal"
          yAxis={[{ scaleType: 'band', data: names, width: 150 }]}
          series={[
            {
              data: answer.contracts.map((r) => hours(r.registered_time)),
              label: c('used'),
              stack: 'hours',
            },
            {
              data: answer.contracts.map((r) => hours(Math.max(0, r.minutes_remaining))),
              label: c('remaining'),
              stack: 'hours',
            },
          ]}
        />
      </Figure>
      <FiguresTable
        captionId={`${id}-table`}
        caption={t('contracts_caption')}
        first={c('contract')}
        columns={[c('period'), c('hours'), c('used'), c('remaining')]}
        rows={answer.contracts.map((r) => ({
          key: String(r.id),
          name: r.contract_name,
          cells: [
            <span key="period" style={{ whiteSpace: 'nowrap' }}>
              {period(r)}
            </span>,
            minutesText(r.minutes_total),
            minutesText(r.registered_time),
            minutesText(r.minutes_remaining),
          ],
        }))}
        total={{
          name: c('total'),
          cells: [
            '',
            minutesText(sum('minutes_total')),
            minutesText(sum('registered_time')),
            minutesText(sum('minutes_remaining')),
          ],
        }}
      />
    </>
  );
}
