/**
 * The back office's start page (issue 18): the operator's dashboard at the root, a lazy chunk of its
 * own, and its menu entry at the top of the menu. The login lands here (docs/decisions.md: SPEC 2 names
 * the portal's landing page only).
 */
import SpaceDashboard from '@mui/icons-material/SpaceDashboard';
import { Menu, useTranslate } from 'react-admin';
import { lazyWithTimeout } from '../../shell/lazy.ts';
import { LazyPage } from '../../shell/LazyPage.tsx';

const DashboardPage = lazyWithTimeout(() => import('./DashboardPage.tsx'));

/** react-admin's dashboard: what the root of the back office shows. */
export function Dashboard() {
  return <LazyPage page={DashboardPage} />;
}

/** 'Dashboard' first in the back office's menu. */
export function DashboardMenuItem() {
  const translate = useTranslate();
  return <Menu.Item to="/" primaryText={translate('dashboard.title')} leftIcon={<SpaceDashboard />} />;
}
