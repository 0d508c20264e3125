/**
 * The back office's exports page at /exports (a lazy chunk) and its menu entry, shown to users who may
 * export (SPEC 6: exports.index).
 */
import type { ReactElement } from 'react';
import { Route } from 'react-router-dom';
import FileDownload from '@mui/icons-material/FileDownload';
import { CustomRoutes, Menu, usePermissions, useTranslate } from 'react-admin';
import { lazyWithTimeout } from '../../shell/lazy.ts';
import { LazyPage } from '../../shell/LazyPage.tsx';

export const EXPORTS_PATH = '/exports';

const ExportsPage = lazyWithTimeout(() => import('./ExportsPage.tsx'));

export function exportRoutes(): ReactElement[] {
  return [
    <CustomRoutes key="exports">
      <Route path={EXPORTS_PATH} element={<LazyPage page={ExportsPage} />} />
    </CustomRoutes>,
  ];
}

/** 'Exports' in the menu, after the resources, for a user with tenant.exports.index. */
export function ExportsMenuItem() {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  if (!Array.isArray(permissions) || !permissions.includes('tenant.exports.index')) return null;
  return <Menu.Item to={EXPORTS_PATH} primaryText={translate('exports.title')} leftIcon={<FileDownload />} />;
}
