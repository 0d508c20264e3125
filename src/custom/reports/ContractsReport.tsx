/**
 * Contract and prepaid consumption (GET /api/reports/contracts): each contract period of the range, the
 * time the range took off it, and what it holds now: its hours, what is registered on it and what
 * remains, with a bar of the share used.
 */
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import { useLocaleState, useTranslate } from 'react-admin';
import type { ContractConsumption, ContractConsumptionRow } from '../../../common/time-report.ts';
import { minutesText } from './period.ts';
import { dayLabel, FiguresTable } from './parts.tsx';
import { Loaded, useReport } from './useReport.tsx';

/** The share of a period's hours used, in whole percents (0 for a period of no hours). */
export function usedPercent(row: Pick<ContractConsumptionRow, 'minutes_total' | 'registered_time'>): number {
  if (row.minutes_total <= 0) return 0;
  return Math.round((100 * row.registered_time) / row.minutes_total);
}

export function ContractsReport({ query, headingId }: { query: string; headingId: string }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const t = (key: string) => translate(`reports.contracts.${key}`);
  const state = useReport<ContractConsumption>(`reports/contracts?${query}`);
  const days = (row: ContractConsumptionRow) => (
    <span style={{ whiteSpace: 'nowrap' }}>
      {row.prepaid
        ? t('prepaid')
        : `${dayLabel(row.period_start, locale)} – ${row.period_end ? dayLabel(row.period_end, locale) : '…'}`}
    </span>
  );
  return (
    <Loaded state={state} height={120}>
      {(answer) => (
        <FiguresTable
          captionId={`${headingId}-contracts`}
          caption={t('caption')}
          first={t('contract')}
          columns={['period', 'companies', 'used_in_range', 'total', 'registered', 'remaining', 'used'].map(
            t,
          )}
          rows={answer.rows.map((row) => {
            const used = usedPercent(row);
            return {
              key: String(row.id),
              name: row.contract_name,
              cells: [
                days(row),
                row.companies.map((c) => c.name).join(', ') || '–',
                minutesText(row.rounded_minutes),
                minutesText(row.minutes_total),
                minutesText(row.registered_time),
                minutesText(row.minutes_remaining),
                <Stack key="used" direction="row" alignItems="center" gap={1} sx={{ minWidth: 120 }}>
                  <LinearProgress
                    variant="determinate"
                    value={Math.min(100, used)}
                    color={used >= 100 ? 'error' : used >= 80 ? 'warning' : 'primary'}
                    sx={{ flex: 1 }}
                    aria-label={translate('reports.contracts.used_label', {
                      contract: row.contract_name,
                      n: used,
                    })}
                  />
                  {`${used}%`}
                </Stack>,
              ],
            };
          })}
          total={{
            name: translate('reports.columns.total'),
            cells: [
              '',
              '',
              minutesText(answer.total.rounded_minutes),
              minutesText(answer.total.minutes_total),
              minutesText(answer.total.registered_time),
              minutesText(answer.total.minutes_remaining),
              '',
            ],
          }}
        />
      )}
    </Loaded>
  );
}
