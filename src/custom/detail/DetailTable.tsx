/**
 * A table of a detail screen (quote lines, subscription lines, time registrations, an asset's details)
 * with its totals. From 768 px (SPEC 9) a table that scrolls inside its card when it must; below, each
 * row reflows into a block of label/value pairs and the totals into a list of their own, so that on a
 * phone the page never scrolls sideways and no amount or total is cut off at the card's edge.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableFooter from '@mui/material/TableFooter';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { MOBILE_QUERY } from '../list/ListScreen.tsx';
import { ScrollableTable } from './parts.tsx';

export interface DetailColumn<Row> {
  key: string;
  label: string;
  align?: 'left' | 'right';
  cell: (row: Row) => ReactNode;
}

export interface DetailTotal {
  key: string;
  label: string;
  value: ReactNode;
  testId?: string;
}

export interface DetailTableProps<Row extends { id: unknown }> {
  columns: DetailColumn<Row>[];
  rows: Row[];
  totals?: DetailTotal[];
  /** The id of the heading that names the table, or else its name as text (shown as its caption). */
  labelledBy?: string;
  label?: string;
}

const strong = { fontWeight: 700, color: 'text.primary' } as const;

export function DetailTable<Row extends { id: unknown }>(props: DetailTableProps<Row>) {
  const isMobile = useMediaQuery(MOBILE_QUERY);
  return isMobile ? <Stacked {...props} /> : <Tabular {...props} />;
}

function Tabular<Row extends { id: unknown }>({
  columns,
  rows,
  totals = [],
  labelledBy,
  label,
}: DetailTableProps<Row>) {
  return (
    <ScrollableTable labelledBy={labelledBy} label={label}>
      <Table size="small" aria-labelledby={labelledBy}>
        {!labelledBy && label && (
          <caption style={{ textAlign: 'left', captionSide: 'top', padding: 0 }}>{label}</caption>
        )}
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c.key} align={c.align ?? 'left'}>
                {c.label}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={String(row.id)}>
              {columns.map((c) => (
                <TableCell key={c.key} align={c.align ?? 'left'}>
                  {c.cell(row)}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
        {totals.length > 0 && (
          <TableFooter>
            {totals.map((total) => (
              <TableRow key={total.key}>
                <TableCell colSpan={Math.max(1, columns.length - 1)} sx={strong}>
                  {total.label}
                </TableCell>
                <TableCell align="right" sx={strong} data-testid={total.testId}>
                  {total.value}
                </TableCell>
              </TableRow>
            ))}
          </TableFooter>
        )}
      </Table>
    </ScrollableTable>
  );
}

/** Label left, value right, wrapping inside the card's width. */
const pair = {
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr) minmax(0, auto)',
  columnGap: 2,
  m: 0,
  '& dd': { m: 0, textAlign: 'right', overflowWrap: 'anywhere' },
  '& dt': { overflowWrap: 'anywhere' },
} as const;

function Stacked<Row extends { id: unknown }>({
  columns,
  rows,
  totals = [],
  labelledBy,
  label,
}: DetailTableProps<Row>) {
  const [first, ...rest] = columns;
  return (
    <Box>
      {!labelledBy && label && (
        <Typography variant="body2" component="p" sx={{ mb: 1 }}>
          {label}
        </Typography>
      )}
      <Box
        component="ul"
        aria-labelledby={labelledBy}
        aria-label={labelledBy ? undefined : label}
        sx={{ listStyle: 'none', p: 0, m: 0 }}
      >
        {rows.map((row) => (
          <Box
            component="li"
            key={String(row.id)}
            sx={{ py: 1, borderBottom: 1, borderColor: 'divider', '&:first-of-type': { pt: 0 } }}
          >
            {first && (
              <Typography variant="body2" component="div" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {first.cell(row)}
              </Typography>
            )}
            <Box component="dl" sx={pair}>
              {rest.map((c) => (
                <Box key={c.key} sx={{ display: 'contents' }}>
                  <Typography component="dt" variant="body2" color="text.secondary">
                    {c.label}
                  </Typography>
                  <Typography component="dd" variant="body2">
                    {c.cell(row)}
                  </Typography>
                </Box>
              ))}
            </Box>
          </Box>
        ))}
      </Box>
      {totals.length > 0 && (
        <Box component="dl" sx={{ ...pair, mt: 1, rowGap: 0.5 }}>
          {totals.map((total) => (
            <Box key={total.key} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" sx={strong}>
                {total.label}
              </Typography>
              <Typography component="dd" variant="body2" sx={strong} data-testid={total.testId}>
                {total.value}
              </Typography>
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
