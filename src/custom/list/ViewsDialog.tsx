/**
 * The settings modal 'table views' (SPEC 2): rename, delete and drag-reorder saved views (table
 * presets), and mark one as the default (the server keeps only one default per user and list).
 */
import { useId, useState } from 'react';
import Delete from '@mui/icons-material/Delete';
import Star from '@mui/icons-material/Star';
import StarBorder from '@mui/icons-material/StarBorder';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Confirm, useTranslate } from 'react-admin';
import { moveColumn } from './columns.ts';
import { ToolButton } from './ListToolbar.tsx';
import type { TablePreset } from './persistence.ts';
import { SortableList } from './SortableList.tsx';

export interface ViewsDialogProps {
  open: boolean;
  presets: TablePreset[];
  onClose: () => void;
  onRename: (preset: TablePreset, label: string) => void;
  onDelete: (preset: TablePreset) => void;
  /** The presets' ids in their new order. */
  onReorder: (ids: string[]) => void;
  onToggleDefault: (preset: TablePreset) => void;
}

export function ViewsDialog({
  open,
  presets,
  onClose,
  onRename,
  onDelete,
  onReorder,
  onToggleDefault,
}: ViewsDialogProps) {
  const translate = useTranslate();
  const titleId = useId();
  const [deleting, setDeleting] = useState<TablePreset | undefined>(undefined);
  const ids = presets.map((p) => String(p.id));
  return (
    <>
      <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
        <DialogTitle id={titleId}>{translate('list.views.title')}</DialogTitle>
        <DialogContent dividers>
          {presets.length === 0 ? (
            <Typography variant="body2">{translate('list.views.empty')}</Typography>
          ) : (
            <SortableList
              aria-label={translate('list.views.title')}
              items={presets}
              getId={(p) => String(p.id)}
              getLabel={(p) => p.label}
              onMove={(active, over) => onReorder(moveColumn(ids, active, over))}
              renderItem={(preset) => (
                <>
                  <ViewLabel preset={preset} onRename={onRename} />
                  <ToolButton
                    size="small"
                    label={translate('list.views.default', { view: preset.label })}
                    aria-pressed={Boolean(preset.is_default)}
                    icon={
                      preset.is_default ? (
                        <Star fontSize="small" color="warning" />
                      ) : (
                        <StarBorder fontSize="small" />
                      )
                    }
                    onClick={() => onToggleDefault(preset)}
                  />
                  <ToolButton
                    size="small"
                    label={translate('list.views.delete', { view: preset.label })}
                    icon={<Delete fontSize="small" />}
                    onClick={() => setDeleting(preset)}
                  />
                </>
              )}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.close')}</Button>
        </DialogActions>
      </Dialog>
      <Confirm
        isOpen={deleting !== undefined}
        title="list.views.confirm_title"
        content="list.views.confirm_delete"
        titleTranslateOptions={{ view: deleting?.label ?? '' }}
        contentTranslateOptions={{ view: deleting?.label ?? '' }}
        onConfirm={() => {
          if (deleting) onDelete(deleting);
          setDeleting(undefined);
        }}
        onClose={() => setDeleting(undefined)}
      />
    </>
  );
}

/** The view's name, saved when the field loses focus or on Enter. */
function ViewLabel({ preset, onRename }: { preset: TablePreset; onRename: ViewsDialogProps['onRename'] }) {
  const translate = useTranslate();
  const [label, setLabel] = useState(preset.label);
  const save = () => {
    const next = label.trim();
    if (next === '') setLabel(preset.label);
    else if (next !== preset.label) onRename(preset, next);
  };
  return (
    <TextField
      size="small"
      fullWidth
      value={label}
      onChange={(event) => setLabel(event.target.value)}
      onBlur={save}
      onKeyDown={(event) => {
        if (event.key === 'Enter') save();
      }}
      slotProps={{
        htmlInput: { 'aria-label': translate('list.views.name', { view: preset.label }), maxLength: 255 },
      }}
    />
  );
}
