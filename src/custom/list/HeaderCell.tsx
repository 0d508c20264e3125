/** A column header (SPEC 2): the label as a sort toggle (aria-sort on the th) and the filter control. */
import Box from '@mui/material/Box';
import TableCell from '@mui/material/TableCell';
import TableSortLabel from '@mui/material/TableSortLabel';
import type { Field, Resource } from '../../../common/schema/types.ts';
import { fieldAlign, FilterControl } from '../../resources/fieldTypes.tsx';
import type { Direction, SortPair } from './persistence.ts';

export interface HeaderCellProps {
  resource: Resource;
  field: Field;
  label: string;
  filterLabel: string;
  sort: SortPair;
  sortable: boolean;
  filterable: boolean;
  filterValue: unknown;
  /** Changes when the filter is replaced from outside (reset, preset): the control starts over. */
  filterEpoch: number;
  onSort: (field: string, direction: Direction) => void;
  onFilter: (field: string, value: unknown) => void;
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
      sx={{ verticalAlign: 'top', whiteSpace: 'nowrap', fontWeight: 600 }}
    >
      {sortable ? (
        <TableSortLabel
          active={sorted}
          direction={direction}
          onClick={() => props.onSort(field.name, nextDirection(sort, field.name))}
        >
          {label}
        </TableSortLabel>
      ) : (
        label
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
    </TableCell>
  );
}
