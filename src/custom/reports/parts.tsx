/**
 * The reports page's parts (issue 36): the periods' names, the page's filters as the report and the
 * ticket list take them, a count as a link to the tickets it counts (the drill-down), and a report's
 * table.
 */
import { useContext, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'react-admin';
import { ScrollableTable } from '../detail/parts.tsx';
import { REPORT_FILTERS, type ReportGroup } from '../../../common/reports.ts';
import { listLink } from '../list/linkedFilter.ts';
import { selectValues, type FilterState } from '../list/filters.ts';
import { registry } from '../../schema.ts';
import { getUser } from '../../dataProvider/storage.ts';
import { AnswerStale } from './useReport.tsx';

/** A period of a report: its first day. */
type Row = { period: string };

/** The resource whose list the figures open and whose header controls filter the report. */
export const tickets = registry.get('tickets')!;

/** A period's name in the user's language: the month, or the first day of the week or the day. */
export function periodLabel(row: Row, group: ReportGroup, locale: string): string {
  const [y, m, d] = row.period.split('-').map(Number) as [number, number, number];
  const date = new Date(y, m - 1, d);
  return group === 'month'
    ? new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric' }).format(date)
    : new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short' }).format(date);
}

/** A day (YYYY-MM-DD) in the user's language, with its year: "1 okt 2026". */
export function dayLabel(day: string, locale: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', year: 'numeric' }).format(
    new Date(y, m - 1, d),
  );
}

/**
 * A field's label inside a sentence ("per operator"): lower-cased where the language writes nouns so,
 * but not in German, nor an abbreviation ("SLA").
 */
export function inSentence(label: string, locale: string): string {
  if (locale === 'de' || label.length < 2 || label[1] !== label[1]!.toLowerCase()) return label;
  return label[0]!.toLowerCase() + label.slice(1);
}

export const percentText = (n: number | null) => (n === null ? '–' : `${n}%`);

/** The report's filters on the page: the ticket list's own header controls for these ticket fields. */
export const PAGE_FILTERS = REPORT_FILTERS;

/**
 * The chosen records of each filter as the report takes them: ids, 'me' as the user's own id, '(none)'
 * as `none` (the tickets without one).
 */
export function chosen(filters: FilterState): Record<string, (number | 'none')[]> {
  const me = getUser()?.id;
  const out: Record<string, (number | 'none')[]> = {};
  for (const key of PAGE_FILTERS) {
    const ids = selectValues(filters[key]).flatMap((v): (number | 'none')[] =>
      v === null ? ['none'] : v === 'me' ? (me === undefined ? [] : [me]) : [Number(v)],
    );
    if (ids.length) out[key] = ids;
  }
  return out;
}

/** The moment each counted figure is about: its drill-down filters the ticket list on it. */
export const DRILL_DOWN = {
  created: 'created_at',
  solved: 'resolved_at',
  responded: 'first_response_at',
} as const;
export type DrillFigure = keyof typeof DRILL_DOWN;

/**
 * A count as a link to the ticket list filtered to exactly those tickets: the moment's days (the
 * list's date range filter) and the report's filters; 0 stays a bare number, and so does every count of an
 * answer shown while the next loads (useReport.tsx, AnswerStale).
 */
export function Count({
  n,
  figure,
  days,
  filters,
  label,
}: {
  n: number;
  figure: DrillFigure;
  days: { from: string; to: string };
  filters: FilterState;
  label: string;
}) {
  const stale = useContext(AnswerStale);
  if (n === 0 || stale) return <>{n}</>;
  const filter = { ...filters, [DRILL_DOWN[figure]]: { preset: 'range', from: days.from, to: days.to } };
  return (
    <Link component={RouterLink} to={listLink('/tickets', filter)} aria-label={label}>
      {n}
    </Link>
  );
}

/**
 * A report's table: a caption (with the report's files beside it), a first column naming each row (a
 * row header), the figures, and the total in bold last.
 */
export function FiguresTable({
  captionId,
  caption,
  actions,
  first,
  columns,
  rows,
  total,
  texts = 0,
}: {
  captionId: string;
  caption: string;
  actions?: ReactNode;
  first: string;
  columns: string[];
  rows: { key: string; name: string; cells: ReactNode[] }[];
  total: { name: string; cells: ReactNode[] };
  /** How many of the first columns hold names rather than figures (aligned left, as texts are). */
  texts?: number;
}) {
  const align = (c: number) => (c < texts ? 'left' : 'right');
  const line = (name: string, cells: ReactNode[]) => (
    <>
      <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap' }}>
        {name}
      </TableCell>
      {cells.map((value, c) => (
        <TableCell key={columns[c]} align={align(c)}>
          {value}
        </TableCell>
      ))}
    </>
  );
  return (
    <Paper>
      <Stack
        direction="row"
        alignItems="center"
        justifyContent="space-between"
        flexWrap="wrap"
        sx={{ px: 2, pt: 1 }}
      >
        <span id={captionId}>{caption}</span>
        {actions}
      </Stack>
      <ScrollableTable labelledBy={captionId}>
        <Table size="small" aria-labelledby={captionId}>
          <TableHead>
            <TableRow>
              <TableCell>{first}</TableCell>
              {columns.map((c, i) => (
                <TableCell key={c} align={align(i)}>
                  {c}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.key}>{line(row.name, row.cells)}</TableRow>
            ))}
            <TableRow sx={{ '& > *': { fontWeight: 600 } }}>{line(total.name, total.cells)}</TableRow>
          </TableBody>
        </Table>
      </ScrollableTable>
    </Paper>
  );
}

/** The "Per" picker above a report's breakdown: what its rows are per, each key by its words. */
export function BreakdownPicker<K extends string>(props: {
  value: K;
  keys: readonly K[];
  labelOf: (key: K) => string;
  onChange: (key: K) => void;
}) {
  const translate = useTranslate();
  return (
    <TextField
      select
      size="small"
      label={translate('reports.breakdown_by')}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value as K)}
      sx={{ maxWidth: 260 }}
    >
      {props.keys.map((key) => (
        <MenuItem key={key} value={key}>
          {props.labelOf(key)}
        </MenuItem>
      ))}
    </TextField>
  );
}
