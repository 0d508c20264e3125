/** Whether the signed-in client may see the portal's service overview (react-admin's permissions: the user's names). */
import { usePermissions } from 'react-admin';
import { SERVICE_OVERVIEW_PERMISSION } from '../../../common/service-overview.ts';

export function useMaySeeOverview(): boolean {
  const { permissions } = usePermissions();
  return Array.isArray(permissions) && permissions.includes(SERVICE_OVERVIEW_PERMISSION);
}
