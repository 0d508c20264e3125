/**
 * The client portal's service overview at /service-overview (issue 36, item 3; a lazy chunk with its
 * chart library) and its menu entry, for clients whose role holds portal.reports.index. The portal's
 * guards know resource routes only: this page answers 'not found' itself to a client without it.
 */
import type { ReactElement } from 'react';
import { Route } from 'react-router-dom';
import Insights from '@mui/icons-material/Insights';
import { CustomRoutes, Menu, useBasename, useTranslate } from 'react-admin';
import { lazyWithTimeout } from '../../shell/lazy.ts';
import { LazyPage } from '../../shell/LazyPage.tsx';
import { useMaySeeOverview } from './permission.ts';

export const SERVICE_OVERVIEW_PATH = '/service-overview';

const ServiceOverviewPage = lazyWithTimeout(() => import('./ServiceOverviewPage.tsx'));

export function serviceOverviewRoutes(): ReactElement[] {
  return [
    <CustomRoutes key="service-overview">
      <Route path={SERVICE_OVERVIEW_PATH} element={<LazyPage page={ServiceOverviewPage} />} />
    </CustomRoutes>,
  ];
}

/** 'Service overview' in the portal's menu, after its resources, for a client with the permission. */
export function ServiceOverviewMenuItem() {
  const translate = useTranslate();
  // A menu item's address is the router's own: the portal's basename (/app) is not added for it.
  const basename = useBasename();
  if (!useMaySeeOverview()) return null;
  return (
    <Menu.Item
      to={`${basename}${SERVICE_OVERVIEW_PATH}`}
      primaryText={translate('service_overview.title')}
      leftIcon={<Insights />}
    />
  );
}
