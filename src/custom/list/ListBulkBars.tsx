import { lazy, Suspense } from 'react';
import type { Resource } from '../../../common/schema/types.ts';
import { BulkActionBar } from './bulkActions.tsx';
import type { ListScreenController } from './useListScreenController.ts';
// Only lists whose schema has x-bulk show it: its code loads with the first such list.
const SchemaBulkBar = lazy(() => import('./SchemaBulkBar.tsx'));

/** The bulk bars, above the table or the phone's cards alike (the selection is the list's). */
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
  return (
    <>
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
    </>
  );
}
