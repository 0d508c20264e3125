/**
 * The desktop table of the list screen (SPEC 2, 9): header cells with sort toggles and filter controls,
 * skeleton rows while loading, the error or empty state, the rows. Rows, sort and selection come from
 * react-admin's list context (./useListScreenController.ts).
 */
import { memo, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useListContext, useTranslate, type RaRecord } from 'react-admin';
import type { Field, Resource } from '../../../common/schema/types.ts';
import type { ActionColumn } from '../../resources/override-contract.ts';
import { ellipsisLimit } from '../../resources/fields/rules.ts';
import { fieldAlign, fieldKind } from '../../resources/fields/kinds.ts';
import { FieldDisplay } from '../../resources/fields/display.tsx';
import { CHECKBOX_COLUMN_PX, SelectCell } from './bulkActions.tsx';
import { rowsAttribute, useRowShortcuts } from '../shortcuts/rows.ts';
import { CELL_PADDING_X, CLIPPED_CELL_SX, titleWhenClipped } from './clipped.ts';
import { widthOf } from '../../../common/schema/display.ts';
import {
  ACTION_COLUMN_WEIGHT,
  columnLayout,
  headerPx,
  isFlexColumn,
  kindPx,
  resolveColumnWidths,
  type ColumnSpec,
} from './columnWidths.ts';
import { HeaderCell } from './HeaderCell.tsx';
import { SKELETON_ROWS } from './MobileList.tsx';
import type { SortPair } from './persistence.ts';
import type { ListModel } from './shape.ts';

/** SPEC 9: the table is at least 360 px high. */
export const TABLE_MIN_HEIGHT = 360;
/** A header cell of the action column, like HeaderCell's. */
const HEADER_CELL_SX = { px: CELL_PADDING_X, verticalAlign: 'bottom', fontWeight: 600 } as const;

export interface ListTableProps {
  resource: Resource;
  model: ListModel;
  columns: Field[];
  labelOf: (field: string) => string;
  actionColumn?: ActionColumn;
  /** Rows can be selected (the resource has a bulk action the user may run). */
  selectable: boolean;
  headingId: string;
  loading: boolean;
  /** What shows instead of the rows when they could not be loaded. */
  failed: ReactNode;
  emptyText: string;
  filterEpoch: number;
  onFilter: (field: string, value: unknown) => void;
  /** Opens a row's record; absent, the rows are not links (a resource without a detail screen). */
  onOpen?: (record: RaRecord) => void;
  /** The widths the user gave columns (kept with the layout) and how to change one. */
  widths: Record<string, number>;
  onResize: (column: string, px: number | undefined) => void;
}

/** The table's frame's inner width, followed as the window or the menu changes it (0 before it is known). */
function useInnerWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(element.clientWidth);
    measure();
    // Without one (jsdom), the table keeps its first layout.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * Memoised: the screen renders again as its other answers arrive (presets, views, counts, a dialog), and
 * the table, its header filters and its rows are most of a render's work. It renders for its own props
 * and for a change of the list context.
 */
export const ListTable = memo(function ListTable(props: ListTableProps) {
  const { resource, model, columns, labelOf, actionColumn, selectable, loading, failed, onOpen } = props;
  const translate = useTranslate();
  const { data, sort, setSort, filterValues, selectedIds, onToggleItem, onSelectAll, onUnselectItems } =
    useListContext();
  const records: RaRecord[] = data ?? [];
  const pageIds = records.map((r) => r.id);
  const sortPair: SortPair = [sort.field, sort.order === 'DESC' ? 'desc' : 'asc'];
  const columnCount = Math.max(1, columns.length + (actionColumn ? 1 : 0) + (selectable ? 1 : 0));
  // j and k move through the rows; Enter on a row opens it (issue 18 item 8).
  const body = useRowShortcuts(records.length > 0 && onOpen !== undefined);

  const [frame, available] = useInnerWidth();
  // A column being dragged shows its width before it is kept.
  const [dragging, setDragging] = useState<{ column: string; px: number } | null>(null);
  const specs: ColumnSpec[] = [
    ...columns.map((f) => {
      const kind = fieldKind(resource, f);
      const limit = ellipsisLimit(resource.name, f.name);
      const own = dragging?.column === f.name ? dragging.px : props.widths[f.name];
      return {
        basePx: Math.max(
          widthOf(f) ?? kindPx(kind, limit),
          headerPx(labelOf(f.name), sortPair[0] === f.name),
        ),
        flex: widthOf(f) === undefined && isFlexColumn(kind, limit),
        ...(own !== undefined && { ownPx: own }),
      };
    }),
    ...(actionColumn
      ? [
          {
            basePx: Math.max(
              kindPx('text', 0) * ACTION_COLUMN_WEIGHT,
              headerPx(translate(actionColumn.label)),
            ),
            flex: false,
          },
        ]
      : []),
  ];
  const fixedPx = selectable ? CHECKBOX_COLUMN_PX : 0;
  // Before the frame is measured (the first layout), shares of the same widths.
  const resolved = available > 0 ? resolveColumnWidths(specs, available, fixedPx) : undefined;
  const shares = columnLayout(
    specs.map((c) => (c.ownPx ?? c.basePx) / 70),
    fixedPx,
  );
  const widthOfColumn = (i: number) => (resolved ? `${resolved.px[i]}px` : shares.widths[i]!);
  const resizeLabel = (name: string) => translate('list.columns.resize', { column: labelOf(name) });

  return (
    // Focusable and named: a wide table scrolls sideways inside it, by keyboard too.
    <TableContainer
      ref={frame}
      component={Paper}
      variant="outlined"
      sx={{ minHeight: TABLE_MIN_HEIGHT }}
      tabIndex={0}
      role="group"
      aria-labelledby={props.headingId}
    >
      <Table
        size="small"
        aria-labelledby={props.headingId}
        aria-busy={loading}
        sx={{
          tableLayout: 'fixed',
          ...(resolved ? { width: resolved.width } : { width: '100%', minWidth: shares.minWidth }),
        }}
      >
        <TableHead>
          <TableRow>
            {selectable && (
              <SelectCell
                header
                checked={pageIds.length > 0 && selectedIds.length === pageIds.length}
                indeterminate={selectedIds.length > 0 && selectedIds.length < pageIds.length}
                label={translate('app.bulk.select_all')}
                onChange={(on) => (on ? onSelectAll() : onUnselectItems())}
              />
            )}
            {columns.map((field, i) => (
              <HeaderCell
                key={field.name}
                resource={resource}
                field={field}
                width={widthOfColumn(i)}
                label={labelOf(field.name)}
                filterLabel={translate('list.filter.label', { field: labelOf(field.name) })}
                sort={sortPair}
                sortable={model.sortable.includes(field.name)}
                filterable={model.kindOf(field.name) !== undefined}
                filterValue={filterValues[field.name]}
                filterEpoch={props.filterEpoch}
                onSort={(name, direction) =>
                  setSort({ field: name, order: direction === 'desc' ? 'DESC' : 'ASC' })
                }
                onFilter={props.onFilter}
                resize={{
                  label: resizeLabel(field.name),
                  width: resolved?.px[i] ?? specs[i]!.ownPx ?? specs[i]!.basePx,
                  onPreview: (px) => setDragging({ column: field.name, px }),
                  onCommit: (px) => {
                    setDragging(null);
                    props.onResize(field.name, px);
                  },
                }}
              />
            ))}
            {actionColumn && (
              <TableCell
                component="th"
                scope="col"
                sx={{ ...HEADER_CELL_SX, width: widthOfColumn(columns.length) }}
              >
                {translate(actionColumn.label)}
              </TableCell>
            )}
          </TableRow>
        </TableHead>
        <TableBody ref={body} {...rowsAttribute}>
          {loading ? (
            Array.from({ length: SKELETON_ROWS }, (_, i) => (
              <TableRow key={`skeleton-${i}`} data-testid="skeleton-row">
                {selectable && <TableCell padding="checkbox" />}
                {columns.map((field) => (
                  <TableCell key={field.name}>
                    <Skeleton variant="text" />
                  </TableCell>
                ))}
                {actionColumn && <TableCell />}
              </TableRow>
            ))
          ) : failed ? (
            <TableRow>
              <TableCell colSpan={columnCount}>{failed}</TableCell>
            </TableRow>
          ) : records.length === 0 ? (
            <TableRow>
              <TableCell colSpan={columnCount} sx={{ py: 6, textAlign: 'center' }}>
                <Typography variant="body1" color="text.primary">
                  {props.emptyText}
                </Typography>
              </TableCell>
            </TableRow>
          ) : (
            records.map((record) => (
              <TableRow
                key={record.id}
                hover
                {...(onOpen && {
                  tabIndex: 0,
                  onClick: () => onOpen(record),
                  onKeyDown: (event: KeyboardEvent<HTMLTableRowElement>) => {
                    if (event.key === 'Enter' && event.target === event.currentTarget) onOpen(record);
                  },
                  sx: { cursor: 'pointer', '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } },
                })}
              >
                {selectable && (
                  <SelectCell
                    checked={selectedIds.includes(record.id)}
                    label={translate('app.bulk.select_row', {
                      label: String(record[resource.label] ?? record.id),
                    })}
                    onChange={() => onToggleItem(record.id)}
                  />
                )}
                {columns.map((field) => (
                  <TableCell
                    key={field.name}
                    align={fieldAlign(resource, field)}
                    sx={CLIPPED_CELL_SX}
                    onMouseEnter={titleWhenClipped}
                  >
                    <FieldDisplay resource={resource} field={field} record={record} />
                  </TableCell>
                ))}
                {actionColumn && (
                  <TableCell sx={CLIPPED_CELL_SX}>
                    <actionColumn.Cell record={record} />
                  </TableCell>
                )}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
});
