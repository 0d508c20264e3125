import { lazy, Suspense } from 'react';
import Paper from '@mui/material/Paper';
import type { Resource } from '../../../common/schema/types.ts';
import { BulkActionBar } from './bulkActions.tsx';
import { overrides } from '../../resources/override-contract.ts';
import type { ListScreenController } from './ListScreenController.ts';
// Only lists whose schema has x-bulk show it: its code loads with the first such list.
const SchemaBulkBar = lazy(() => import('./SchemaBulkBar.tsx'));

/**
 * The bulk bars, below the table or the phone's cards alike (the selection is the list's), shown only
 * while rows are selected (issue 37, item 5): with nothing selected they took 100 px above the rows
 * (200 px on a phone) for disabled controls. They stick to the bottom of the screen, so ticking a row
 * moves no row (the next one to tick stays under the mouse) and the bar is at hand however far the
 * list is scrolled; at the end of the list it stands below the rows.
 */
export function ListBulkBars({
  resource,
  list,
  bulk,
  bulkFields,
  bulkRuns,
  onDone,
}: {
  resource: Resource;
  list: ListScreenController;
  /** The bulk actions of ./bulkActions.tsx the user may run. */
  bulk: string[];
  /** x-bulk's fields and actions the user may change and run (./SchemaBulkBar.tsx). */
  bulkFields: string[];
  bulkRuns: string[];
  onDone: () => void;
}) {
  if (list.selected.length === 0) return null;
  const Own = overrides.backoffice[resource.name]?.bulk;
  return (
    <Paper
      elevation={6}
      data-testid="bulk-bars"
      sx={{
        position: 'sticky',
        bottom: 0,
        // Above the rows and cards it covers, below the app bar, menus and dialogs.
        zIndex: (theme) => theme.zIndex.appBar - 1,
        mt: 1,
        px: 1.5,
        pt: 1,
        // The bars keep their own bottom margin.
        pb: 0,
      }}
    >
      {bulk.length > 0 && (
        <BulkActionBar resource={resource.name} actions={bulk} selected={list.selected} onDone={onDone} />
      )}
      {(bulkFields.length > 0 || bulkRuns.length > 0) && (
        <Suspense fallback={null}>
          <SchemaBulkBar
            resource={resource}
            fields={bulkFields}
            actions={bulkRuns}
            selected={list.selected}
            pageCount={list.context.data?.length ?? 0}
            total={list.range?.total ?? 0}
            providerFilter={list.providerFilter}
            onDone={onDone}
          />
        </Suspense>
      )}
      {Own && (
        <Suspense fallback={null}>
          <Own selected={list.selected} onDone={onDone} />
        </Suspense>
      )}
    </Paper>
  );
}
