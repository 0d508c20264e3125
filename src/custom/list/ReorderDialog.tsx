/**
 * The order of a resource's records (SPEC 7 PUT {resource}/{id}/update-order, e.g. settings views,
 * ticket statuses, priorities): the first 100 in their order field's order, dragged (or moved with the
 * keyboard) into place. Every record whose position changed gets its new position as its order.
 */
import { useEffect, useId, useState } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useDataProvider, useNotify, useTranslate, type RaRecord } from 'react-admin';
import type { Resource } from '../../../common/schema/types.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { moveColumn } from './columns.ts';
import { SortableList } from './SortableList.tsx';

/** The new order values: each record's position, for the records whose position changed. */
export function orderChanges(
  records: readonly RaRecord[],
  ids: readonly string[],
  orderField: string,
): { id: RaRecord['id']; order: number }[] {
  const byId = new Map(records.map((r) => [String(r.id), r]));
  return ids.flatMap((id, position) => {
    const record = byId.get(id)!;
    return Number(record[orderField]) === position ? [] : [{ id: record.id, order: position }];
  });
}

export interface ReorderDialogProps {
  open: boolean;
  resource: Resource;
  onClose: () => void;
  /** After a save: the list shows the new order. */
  onSaved: () => void;
}

export function ReorderDialog({ open, resource, onClose, onSaved }: ReorderDialogProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const titleId = useId();
  const [records, setRecords] = useState<RaRecord[] | undefined>(undefined);
  const [ids, setIds] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    let live = true;
    void dataProvider
      .getList(resource.name, {
        pagination: { page: 1, perPage: 100 },
        sort: { field: resource.orderField, order: 'ASC' },
        filter: {},
        meta: { list: 'reorder' },
      })
      .then(({ data }) => {
        if (!live) return;
        setRecords(data);
        setIds(data.map((r) => String(r.id)));
      });
    return () => {
      live = false;
    };
  }, [open, dataProvider, resource]);

  const save = async () => {
    setSaving(true);
    try {
      for (const change of orderChanges(records ?? [], ids, resource.orderField))
        await dataProvider.updateOrder(resource.name, change.id, change.order);
      notify('app.notifications.order_saved', { type: 'success' });
      onSaved();
      onClose();
    } catch (error) {
      notify((error as Error).message || 'app.errors.generic', { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const byId = new Map((records ?? []).map((r) => [String(r.id), r]));
  const labelOf = (id: string) => String(byId.get(id)?.[resource.label] ?? id);
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{translate('list.reorder.title')}</DialogTitle>
      <DialogContent dividers>
        {records === undefined ? (
          <CircularProgress size={24} aria-label={translate('ra.page.loading')} />
        ) : (
          <>
            <Typography variant="body2" sx={{ mb: 1 }}>
              {translate('list.reorder.hint')}
            </Typography>
            <SortableList
              aria-label={translate('list.reorder.title')}
              items={ids}
              getId={(id) => id}
              getLabel={labelOf}
              onMove={(active, over) => setIds(moveColumn(ids, active, over))}
              renderItem={(id) => <Typography>{labelOf(id)}</Typography>}
            />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving || records === undefined}>
          {translate('ra.action.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
