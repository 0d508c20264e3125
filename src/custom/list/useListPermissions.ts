import { usePermissions } from 'react-admin';
import type { Resource } from '../../../common/schema/types.ts';
import { permissionPrefix, useAppKind } from '../appKind.ts';
import { allowedBulkActions } from './bulkActions.tsx';
import { allowedListViews } from './listViews.ts';

/** What the user may do on this list, from their permissions (`<prefix>.<name>`). */
export function useListPermissions(resource: Resource) {
  const appKind = useAppKind();
  const { permissions } = usePermissions();
  const prefix = permissionPrefix(appKind);
  const can = (name: string) => Array.isArray(permissions) && permissions.includes(`${prefix}.${name}`);
  const mayRun = (action: string) => can(`${resource.name}.${action}`);
  const backoffice = appKind === 'backoffice';
  return {
    canPresets: can('table-presets.store'),
    canExport: can('exports.index') && resource.actions.includes('index'),
    canReorder: backoffice && resource.actions.includes('update-order') && mayRun('update-order'),
    // Row selection shows only where the schema offers a bulk action the user may run.
    bulk: backoffice ? allowedBulkActions(resource.actions, mayRun) : [],
    // x-bulk: the fields need the update permission, each action its own.
    bulkFields: backoffice && resource.bulk && mayRun('update') ? resource.bulk.fields : [],
    bulkRuns: backoffice && resource.bulk ? resource.bulk.actions.filter(mayRun) : [],
    views: backoffice ? allowedListViews(resource.actions, mayRun) : [],
  };
}
