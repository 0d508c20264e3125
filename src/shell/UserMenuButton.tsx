/**
 * The user menu in the app bar: react-admin's UserMenu, but named after the user it shows. Its button
 * shows the user's name on a desktop, and react-admin named it 'Profile' whatever it showed (axe's
 * label-content-name-mismatch, WCAG 2.5.3: a speech-input user says what they read). Here the name is the
 * user's name, then what the button opens ('Pieter Jansen, profile'), on a desktop and on the phone's
 * icon button alike; react-admin's label cannot carry the name (it translates its label once more, and
 * on a phone falls back to the English 'Profile'). The menu holds the own two-factor page and the logout.
 */
import { useCallback, useMemo, useState, type MouseEvent } from 'react';
import { Button, IconButton, Menu, Tooltip, useMediaQuery, type Theme } from '@mui/material';
import AccountCircle from '@mui/icons-material/AccountCircle';
import { Logout, useGetIdentity, UserMenuContextProvider, useTranslate } from 'react-admin';
import { TwoFactorMenuItem } from '../custom/two-factor/routes.tsx';

const MENU_ID = 'user-menu';

export function UserMenuButton() {
  const translate = useTranslate();
  const { isPending, identity } = useGetIdentity();
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('sm'));
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = useCallback(() => setAnchor(null), []);
  const context = useMemo(() => ({ onClose: close }), [close]);
  const open = (event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget);

  const name = !isPending && typeof identity?.fullName === 'string' ? identity.fullName.trim() : '';
  const label = name ? translate('app.menu.user_menu_named', { name }) : translate('ra.auth.user_menu');
  const menuProps = {
    'aria-label': label,
    'aria-haspopup': true,
    'aria-controls': anchor ? MENU_ID : undefined,
    'aria-expanded': anchor ? true : undefined,
    color: 'inherit' as const,
    onClick: open,
  };
  return (
    <>
      {wide && name ? (
        <Button
          {...menuProps}
          startIcon={<AccountCircle />}
          sx={{ textTransform: 'none', marginInlineStart: 0.5 }}
        >
          {name}
        </Button>
      ) : (
        <Tooltip title={label}>
          <IconButton {...menuProps}>
            <AccountCircle />
          </IconButton>
        </Tooltip>
      )}
      <UserMenuContextProvider value={context}>
        <Menu
          id={MENU_ID}
          disableScrollLock
          anchorEl={anchor}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          transformOrigin={{ vertical: 'top', horizontal: 'right' }}
          open={Boolean(anchor)}
          onClose={close}
        >
          <TwoFactorMenuItem />
          <Logout />
        </Menu>
      </UserMenuContextProvider>
    </>
  );
}
