/**
 * The clients' satisfaction (GET /api/reports/satisfaction, issue 39 item 3): the survey ratings given
 * in the period, per month and per operator or company (the ticket's when it was solved), as good,
 * neutral and bad, the share good, and the average of those given on the 1 to 5 scale. The average's
 * column shows only when the period holds such ratings: a tenant on good-neutral-bad never sees an
 * empty column, and one that changed scale sees both (the scale is each survey's own, kept when mailed).
 */
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useLocaleState, useTranslate } from 'react-admin';
import {
  SATISFACTION_BY,
  type SatisfactionAnswer,
  type SatisfactionBy,
  type SatisfactionRow,
} from '../../../common/satisfaction-report.ts';
import { toQueryString } from '../../dataProvider/builder.ts';
import { BreakdownPicker, FiguresTable, inSentence, periodLabel } from './parts.tsx';
import { Loaded, useReport } from './useReport.tsx';

type Figures = Pick<SatisfactionRow, 'rated' | 'good' | 'neutral' | 'bad' | 'rated_on_5' | 'average'>;

/** The rows' sum; its share good and its average weighed by each row's ratings. */
export function satisfactionTotal(rows: SatisfactionRow[]): Figures & { satisfied: number | null } {
  const sum = (pick: (r: SatisfactionRow) => number) => rows.reduce((n, r) => n + pick(r), 0);
  const rated = sum((r) => r.rated);
  const good = sum((r) => r.good);
  const ratedOn5 = sum((r) => r.rated_on_5);
  const points = sum((r) => (r.average ?? 0) * r.rated_on_5);
  return {
    rated,
    good,
    neutral: sum((r) => r.neutral),
    bad: sum((r) => r.bad),
    satisfied: rated === 0 ? null : Math.round((good / rated) * 1000) / 10,
    rated_on_5: ratedOn5,
    average: ratedOn5 === 0 ? null : Math.round((points / ratedOn5) * 10) / 10,
  };
}

export function SatisfactionReport({
  from,
  to,
  headingId,
  by,
  onBy,
}: {
  from: string;
  to: string;
  headingId: string;
  by: SatisfactionBy;
  onBy: (by: SatisfactionBy) => void;
}) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const t = (key: string, values?: Record<string, unknown>) =>
    translate(`reports.satisfaction.${key}`, values);
  const state = useReport<SatisfactionAnswer>(`reports/satisfaction?${toQueryString({ from, to, by })}`);
  const decimal = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
  const share = (n: number | null) => (n === null ? '–' : `${decimal.format(n)}%`);
  const average = (n: number | null) => (n === null ? '–' : decimal.format(n));

  return (
    <Stack gap={2}>
      <Typography variant="body2" color="text.secondary">
        {t('note')}
      </Typography>
      <BreakdownPicker value={by} keys={SATISFACTION_BY} labelOf={(key) => t(`by.${key}`)} onChange={onBy} />
      <Loaded state={state} height={160}>
        {(answer) => {
          if (answer.rows.length === 0) return <Typography>{t('empty')}</Typography>;
          const withAverage = answer.rows.some((r) => r.rated_on_5 > 0);
          const cells = (f: Figures & { satisfied: number | null }) => [
            f.rated,
            f.good,
            f.neutral,
            f.bad,
            ...(withAverage ? [average(f.average)] : []),
            share(f.satisfied),
          ];
          return (
            <FiguresTable
              captionId={`${headingId}-satisfaction`}
              caption={t('caption', { key: inSentence(t(`by.${by}`), locale) })}
              first={t('month')}
              texts={1}
              columns={[
                t(`by.${by}`),
                ...['rated', 'good', 'neutral', 'bad', ...(withAverage ? ['average'] : []), 'satisfied'].map(
                  (c) => t(c),
                ),
              ]}
              rows={answer.rows.map((row) => ({
                key: `${row.month}-${row.key}`,
                name: periodLabel({ period: row.month }, 'month', locale),
                cells: [row.name ?? translate('reports.columns.none'), ...cells(row)],
              }))}
              total={{
                name: translate('reports.columns.total'),
                cells: ['', ...cells(satisfactionTotal(answer.rows))],
              }}
            />
          );
        }}
      </Loaded>
    </Stack>
  );
}
