/**
 * The column modal (SPEC 2): visible and hidden columns, order by dragging, rows per page. Its reset
 * also gives every column back its schema's width (the widths the user dragged, issue 37 item 5).
 */
import { useId, useState } from 'react';
import Add from '@mui/icons-material/Add';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'react-admin';
import { hiddenColumns, hideColumn, moveColumn, showColumn } from './columns.ts';
import { PAGE_SIZES } from './persistence.ts';
import { ToolButton } from './ListToolbar.tsx';
import { SortableList } from './SortableList.tsx';

export interface ColumnsDialogProps {
  open: boolean;
  /** Every column the user may show, in schema order. */
  available: string[];
  defaultColumns: string[];
  columns: string[];
  perPage: number;
  /** The widths the user gave columns. */
  widths: Record<string, number>;
  labelOf: (column: string) => string;
  onClose: () => void;
  onSave: (layout: { columns: string[]; perPage: number; widths: Record<string, number> }) => void;
}

export function ColumnsDialog(props: ColumnsDialogProps) {
  // A fresh draft each time the dialog opens.
  return props.open ? <ColumnsDialogContent {...props} /> : null;
}

function ColumnsDialogContent({
  available,
  defaultColumns,
  columns: initialColumns,
  perPage: initialPerPage,
  widths: initialWidths,
  labelOf,
  onClose,
  onSave,
}: ColumnsDialogProps) {
  const translate = useTranslate();
  const titleId = useId();
  const [columns, setColumns] = useState(initialColumns);
  const [perPage, setPerPage] = useState(initialPerPage);
  const [widths, setWidths] = useState(initialWidths);
  const hidden = hiddenColumns(available, columns);
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{translate('list.columns.title')}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="subtitle1" component="h2">
          {translate('list.columns.visible')}
        </Typography>
        <SortableList
          aria-label={translate('list.columns.visible')}
          items={columns}
          getId={(c) => c}
          getLabel={labelOf}
          onMove={(active, over) => setColumns((current) => moveColumn(current, active, over))}
          renderItem={(column) => (
            <>
              <ListItemText primary={labelOf(column)} />
              <ToolButton
                size="small"
                label={translate('list.columns.hide', { column: labelOf(column) })}
                icon={<VisibilityOff fontSize="small" />}
                disabled={columns.length <= 1}
                onClick={() => setColumns((current) => hideColumn(current, column))}
              />
            </>
          )}
        />
        <Typography variant="subtitle1" component="h2" sx={{ mt: 2 }}>
          {translate('list.columns.hidden')}
        </Typography>
        {hidden.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {translate('list.columns.none_hidden')}
          </Typography>
        ) : (
          <List dense aria-label={translate('list.columns.hidden')}>
            {hidden.map((column) => (
              <ListItem
                key={column}
                disableGutters
                secondaryAction={
                  <ToolButton
                    size="small"
                    edge="end"
                    label={translate('list.columns.show', { column: labelOf(column) })}
                    icon={<Add fontSize="small" />}
                    onClick={() => setColumns((current) => showColumn(current, column))}
                  />
                }
              >
                <ListItemText primary={labelOf(column)} />
              </ListItem>
            ))}
          </List>
        )}
        <TextField
          select
          size="small"
          sx={{ mt: 2, minWidth: 160 }}
          label={translate('list.columns.per_page')}
          value={perPage}
          onChange={(event) => setPerPage(Number(event.target.value))}
          slotProps={{ select: { native: true } }}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions>
        <Button
          onClick={() => {
            setColumns(defaultColumns.length ? defaultColumns : available.slice(0, 5));
            setWidths({});
          }}
        >
          {translate('list.columns.reset')}
        </Button>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" onClick={() => onSave({ columns, perPage, widths })}>
          {translate('ra.action.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
