/**
 * The desktop table of the list screen (SPEC 2, 9): header cells with sort toggles and filter controls,
 * skeleton rows while loading, the error or empty state, the rows. Rows, sort and selection come from
 * react-admin's list context (./useListScreenController.ts).
 */
import { memo, type KeyboardEvent, type ReactNode } from 'react';
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
import { SelectCell } from './bulkActions.tsx';
import { rowsAttribute, useRowShortcuts } from '../shortcuts/rows.ts';
import { CELL_PADDING_X, CLIPPED_CELL_SX, titleWhenClipped } from './clipped.ts';
import { ACTION_COLUMN_WEIGHT, columnLayout, columnWeight, headerWeight } from './columnWidths.ts';
import { HeaderCell } from './HeaderCell.tsx';
import { SKELETON_ROWS } from './MobileList.tsx';
import type { SortPair } from './persistence.ts';
import type { ListModel } from './shape.ts';

/** SPEC 9: the table is at least 360 px high. */
export const TABLE_MIN_HEIGHT = 360;
/** MUI's checkbox cell (padding="checkbox") is this wide. */
const CHECKBOX_COLUMN_PX = 48;
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

  // The columns share the table's width (fixed layout); the checkbox column keeps its 48 px.
  const layout = columnLayout(
    [
      ...columns.map((f) =>
        Math.max(
          columnWeight(fieldKind(resource, f), ellipsisLimit(resource.name, f.name)),
          headerWeight(labelOf(f.name), model.sortable.includes(f.name)),
        ),
      ),
      ...(actionColumn
        ? [Math.max(ACTION_COLUMN_WEIGHT, headerWeight(translate(actionColumn.label), false))]
        : []),
    ],
    selectable ? CHECKBOX_COLUMN_PX : 0,
  );

  return (
    // Focusable and named: a wide table scrolls sideways inside it, by keyboard too.
    <TableContainer
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
        sx={{ tableLayout: 'fixed', width: '100%', minWidth: layout.minWidth }}
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
                width={layout.widths[i]!}
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
              />
            ))}
            {actionColumn && (
              <TableCell
                component="th"
                scope="col"
                sx={{ ...HEADER_CELL_SX, width: layout.widths[columns.length] }}
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
