/**
 * The back office's service report at /reports (issue 36; a lazy chunk, with its chart library) and its
 * menu entry, shown to operators with tenant.reports.index.
 */
import type { ReactElement } from 'react';
import { Route } from 'react-router-dom';
import Insights from '@mui/icons-material/Insights';
import { CustomRoutes, Menu, usePermissions, useTranslate } from 'react-admin';
import { lazyWithTimeout } from '../../shell/lazy.ts';
import { LazyPage } from '../../shell/LazyPage.tsx';
import { REPORTS_PERMISSION } from '../../../common/reports.ts';

export const REPORTS_PATH = '/reports';

const ReportsPage = lazyWithTimeout(() => import('./ReportsPage.tsx'));

export function reportRoutes(): ReactElement[] {
  return [
    <CustomRoutes key="reports">
      <Route path={REPORTS_PATH} element={<LazyPage page={ReportsPage} />} />
    </CustomRoutes>,
  ];
}

/** 'Reports' in the menu, after the dashboard, for a user with tenant.reports.index. */
export function ReportsMenuItem() {
  const translate = useTranslate();
  const { permissions } = usePermissions();
  if (!Array.isArray(permissions) || !permissions.includes(REPORTS_PERMISSION)) return null;
  return <Menu.Item to={REPORTS_PATH} primaryText={translate('reports.title')} leftIcon={<Insights />} />;
}
