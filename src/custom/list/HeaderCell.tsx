/** A column header (SPEC 2): the label as a sort toggle (aria-sort on the th) and the filter control. */
import Box from '@mui/material/Box';
import TableCell from '@mui/material/TableCell';
import TableSortLabel from '@mui/material/TableSortLabel';
import type { Field, Resource } from '../../../common/schema/types.ts';
import { fieldAlign } from '../../resources/fields/kinds.ts';
import { FilterControl } from '../../resources/fields/FilterControl.tsx';
import type { Direction, SortPair } from './persistence.ts';
import { CELL_PADDING_X, titleWhenClipped } from './clipped.ts';
import { ColumnResizeHandle, type ColumnResizeHandleProps } from './ColumnResizeHandle.tsx';

export interface HeaderCellProps {
  resource: Resource;
  field: Field;
  label: string;
  /** The column's share of the table (a CSS width; the table's layout is fixed). */
  width?: string;
  filterLabel: string;
  sort: SortPair;
  sortable: boolean;
  filterable: boolean;
  filterValue: unknown;
  /** Changes when the filter is replaced from outside (reset, preset): the control starts over. */
  filterEpoch: number;
  onSort: (field: string, direction: Direction) => void;
  onFilter: (field: string, value: unknown) => void;
  /** The edge that sizes the column. */
  resize?: ColumnResizeHandleProps;
}

/**
 * A label longer than its column wraps at its spaces; a word longer than the column ends in an ellipsis
 * (the whole label is the tooltip, and still the button's name) instead of widening the table.
 */
function Label({ text }: { text: string }) {
  return (
    <Box
      component="span"
      onMouseEnter={titleWhenClipped}
      sx={{
        display: 'inline-block',
        maxWidth: '100%',
        minWidth: 0,
        overflow: 'hidden',
        textOverflow: 'ellipsis',
      }}
    >
      {text}
    </Box>
  );
}

/** Next direction of a toggle: an unsorted column starts ascending, then it flips. */
export function nextDirection(sort: SortPair, field: string): Direction {
  return sort[0] === field && sort[1] === 'asc' ? 'desc' : 'asc';
}

export function HeaderCell(props: HeaderCellProps) {
  const { resource, field, label, sort, sortable, filterable } = props;
  const sorted = sort[0] === field.name;
  const direction = sorted ? sort[1] : 'asc';
  return (
    <TableCell
      component="th"
      scope="col"
      align={fieldAlign(resource, field)}
      aria-sort={sorted ? (direction === 'asc' ? 'ascending' : 'descending') : sortable ? 'none' : undefined}
      // Bottom: the filter controls stand on one line when some labels take two.
      sx={{
        px: CELL_PADDING_X,
        width: props.width,
        verticalAlign: 'bottom',
        fontWeight: 600,
        position: 'relative',
      }}
    >
      {sortable ? (
        <TableSortLabel
          active={sorted}
          direction={direction}
          onClick={() => props.onSort(field.name, nextDirection(sort, field.name))}
          // Only the sorted column shows its arrow and keeps room for it: the others' labels have the
          // whole column (./columnWidths.ts headerPx).
          sx={{ maxWidth: '100%', ...(!sorted && { '& .MuiTableSortLabel-icon': { display: 'none' } }) }}
        >
          <Label text={label} />
        </TableSortLabel>
      ) : (
        <Label text={label} />
      )}
      {filterable && (
        <Box sx={{ mt: 0.5, textAlign: 'left' }}>
          <FilterControl
            key={props.filterEpoch}
            resource={resource}
            field={field}
            label={props.filterLabel}
            value={props.filterValue}
            onChange={(value) => props.onFilter(field.name, value)}
          />
        </Box>
      )}
      {props.resize && <ColumnResizeHandle {...props.resize} />}
    </TableCell>
  );
}
