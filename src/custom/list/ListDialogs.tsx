import type { Resource } from '../../../common/schema/types.ts';
import { ColumnsDialog } from './ColumnsDialog.tsx';
import type { ListSettings } from './persistence.ts';
import { ReorderDialog } from './ReorderDialog.tsx';
import type { ListModel } from './shape.ts';
import type { ListViews } from './useListViews.ts';
import { ViewsDialog } from './ViewsDialog.tsx';

/** Which of the desktop list's dialogs is open: the columns, the order of the records, the saved views. */
export interface ListDialogsOpen {
  settings: boolean;
  reorder: boolean;
  views: boolean;
}

/** The desktop list's dialogs (SPEC 2, 4): columns and page size, the records' order, the saved views. */
export function ListDialogs({
  resource,
  model,
  settings,
  labelOf,
  open,
  onClose,
  onSaveLayout,
  canReorder,
  onReordered,
  canPresets,
  views,
}: {
  resource: Resource;
  model: ListModel;
  settings: ListSettings;
  labelOf: (field: string) => string;
  open: ListDialogsOpen;
  onClose: (dialog: keyof ListDialogsOpen) => void;
  onSaveLayout: (layout: { columns: string[]; perPage: number; widths: Record<string, number> }) => void;
  canReorder: boolean;
  onReordered: () => void;
  canPresets: boolean;
  views: ListViews;
}) {
  const { presetsApi } = views;
  return (
    <>
      <ColumnsDialog
        open={open.settings}
        available={model.columns}
        defaultColumns={model.defaultColumns}
        columns={settings.columns}
        perPage={settings.perPage}
        widths={settings.widths}
        labelOf={labelOf}
        onClose={() => onClose('settings')}
        onSave={onSaveLayout}
      />
      {/* Mounted while open: each opening reads the current order afresh. */}
      {canReorder && open.reorder && (
        <ReorderDialog
          open={open.reorder}
          resource={resource}
          onClose={() => onClose('reorder')}
          onSaved={onReordered}
        />
      )}
      {canPresets && (
        <ViewsDialog
          open={open.views}
          presets={presetsApi.presets}
          onClose={() => onClose('views')}
          onRename={presetsApi.rename}
          onDelete={(preset) => {
            if (preset.id === views.activePresetId) views.setActivePresetId(undefined);
            void presetsApi.remove(preset);
          }}
          onReorder={presetsApi.reorder}
          onToggleDefault={presetsApi.toggleDefault}
        />
      )}
    </>
  );
}
