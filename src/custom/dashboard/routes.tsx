/**
 * The back office's start page (issue 18): the operator's dashboard at the root, a lazy chunk of its
 * own, and its menu entry at the top of the menu. The login lands here (docs/decisions.md: SPEC 2 names
 * the portal's landing page only).
 */
import { Suspense } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import SpaceDashboard from '@mui/icons-material/SpaceDashboard';
import { Menu, useTranslate } from 'react-admin';
import { lazyWithTimeout } from '../../shell/lazy.ts';

const DashboardPage = lazyWithTimeout(() => import('./DashboardPage.tsx'));

function Loading() {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
      <CircularProgress aria-label={translate('ra.page.loading')} />
    </Box>
  );
}

/** react-admin's dashboard: what the root of the back office shows. */
export function Dashboard() {
  return (
    <Suspense fallback={<Loading />}>
      <DashboardPage />
    </Suspense>
  );
}

/** 'Dashboard' first in the back office's menu. */
export function DashboardMenuItem() {
  const translate = useTranslate();
  return <Menu.Item to="/" primaryText={translate('dashboard.title')} leftIcon={<SpaceDashboard />} />;
}
