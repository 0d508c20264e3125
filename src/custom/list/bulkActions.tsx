/**
 * Actions on the selected rows of a list (SPEC 7: POST {resource}/invoice and /deinvoice {ids},
 * invoicing/download-csv {ids}), keyed by action name: a list offers the ones its schema's x-actions name
 * and the user holds the permission for (`<prefix>.<resource>.<action>`). A new bulk action is an entry
 * here, not a change of the list screen.
 */
import { useState, type ComponentType } from 'react';
import { Box, Button, Checkbox, TableCell, Typography } from '@mui/material';
import ReceiptIcon from '@mui/icons-material/ReceiptLong';
import RemoveIcon from '@mui/icons-material/RemoveCircleOutline';
import DownloadIcon from '@mui/icons-material/Download';
import { useDataProvider, useNotify, useTranslate, type Identifier } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { saveBlob } from '../saveBlob.ts';
import { halfTickedRef } from './halfTicked.ts';

export interface BulkAction {
  /** i18n key of the button. */
  label: string;
  icon: ComponentType;
  run: (dataProvider: ServiceDeskDataProvider, resource: string, ids: Identifier[]) => Promise<unknown>;
  /** i18n key of the success toast; none for a download (the file is the answer). */
  success?: string;
}

export const bulkActions: Record<string, BulkAction> = {
  invoice: {
    label: 'app.invoicing.invoice',
    icon: ReceiptIcon,
    run: (dp, resource, ids) => dp.collectionAction(resource, 'invoice', { ids }),
    success: 'app.invoicing.invoiced',
  },
  deinvoice: {
    label: 'app.invoicing.deinvoice',
    icon: RemoveIcon,
    run: (dp, resource, ids) => dp.collectionAction(resource, 'deinvoice', { ids }),
    success: 'app.invoicing.deinvoiced',
  },
  'download-csv': {
    label: 'app.invoicing.download_csv',
    icon: DownloadIcon,
    run: async (dp, _resource, ids) =>
      saveBlob(
        await dp.call<Blob>('POST', 'invoicing/download-csv', { body: { ids }, responseType: 'blob' }),
        'invoices.csv',
      ),
  },
};

/** The bulk actions of a resource that the user may run, in the schema's order. */
export function allowedBulkActions(actions: string[], may: (action: string) => boolean): string[] {
  return actions.filter((action) => bulkActions[action] && may(action));
}

/** The bar above the table: how many rows are selected and a button per action. */
export function BulkActionBar({
  resource,
  actions,
  selected,
  onDone,
}: {
  resource: string;
  actions: string[];
  selected: Identifier[];
  onDone: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const [busy, setBusy] = useState(false);
  const run = async (action: BulkAction) => {
    setBusy(true);
    try {
      await action.run(dataProvider, resource, selected);
      if (action.success) notify(action.success, { type: 'success' });
      onDone();
    } catch (error) {
      notify((error as Error).message || 'app.errors.generic', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box
      role="toolbar"
      aria-label={translate('app.bulk.toolbar')}
      sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: 1 }}
    >
      <Typography variant="body2" sx={{ mr: 1 }} aria-live="polite">
        {translate('app.bulk.selected', { smart_count: selected.length })}
      </Typography>
      {actions.map((name) => {
        const action = bulkActions[name]!;
        const Icon = action.icon;
        return (
          <Button
            key={name}
            size="small"
            variant="outlined"
            startIcon={<Icon />}
            disabled={busy || selected.length === 0}
            onClick={() => void run(action)}
          >
            {translate(action.label)}
          </Button>
        );
      })}
    </Box>
  );
}

/** The selection column's width. */
export const CHECKBOX_COLUMN_PX = 48;

/** A checkbox cell of the selection column; a click on it does not open the row. */
export function SelectCell({
  checked,
  indeterminate,
  label,
  onChange,
  header,
}: {
  checked: boolean;
  indeterminate?: boolean;
  label: string;
  onChange: (checked: boolean) => void;
  header?: boolean;
}) {
  return (
    <TableCell
      padding="checkbox"
      // The list table's fixed layout counts on this width (ListTable's CHECKBOX_COLUMN_PX): MUI's small
      // checkbox cell says 24 px, and the columns would share the difference, off what the user sized.
      {...(header ? { component: 'th' as const, scope: 'col', style: { width: CHECKBOX_COLUMN_PX } } : {})}
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => event.stopPropagation()}
    >
      <Checkbox
        size="small"
        checked={checked}
        indeterminate={indeterminate}
        inputRef={halfTickedRef(indeterminate === true)}
        onChange={(event) => onChange(event.target.checked)}
        slotProps={{ input: { 'aria-label': label } }}
      />
    </TableCell>
  );
}
