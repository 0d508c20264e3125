/**
 * The own two-factor page at /two-factor (a lazy chunk) in both apps, and its entry in the user menu
 * (issue 38, item 1). Every signed-in user may open it: it shows and changes their own sign-in only.
 */
import type { ReactElement } from 'react';
import { Route } from 'react-router-dom';
import Security from '@mui/icons-material/Security';
import { CustomRoutes, MenuItemLink, useBasename, useTranslate, useUserMenu } from 'react-admin';
import { lazyWithTimeout } from '../../shell/lazy.ts';
import { LazyPage } from '../../shell/LazyPage.tsx';

export const TWO_FACTOR_PATH = '/two-factor';

const TwoFactorPage = lazyWithTimeout(() => import('./TwoFactorPage.tsx'));

export function twoFactorRoutes(): ReactElement[] {
  return [
    <CustomRoutes key="two-factor">
      <Route path={TWO_FACTOR_PATH} element={<LazyPage page={TwoFactorPage} />} />
    </CustomRoutes>,
  ];
}

/** 'Two-factor sign-in' in the user menu, above the logout. */
export function TwoFactorMenuItem() {
  const translate = useTranslate();
  const userMenu = useUserMenu();
  // A menu item's address is the router's own: the portal's basename (/app) is not added for it.
  const basename = useBasename();
  return (
    <MenuItemLink
      to={`${basename}${TWO_FACTOR_PATH}`}
      primaryText={translate('app.two_factor.menu_item')}
      leftIcon={<Security />}
      onClick={() => userMenu?.onClose()}
    />
  );
}
