import type { ReactNode } from 'react';
import { Box, Button } from '@mui/material';
import LoginIcon from '@mui/icons-material/Login';
import {
  AppBar,
  Layout as RaLayout,
  LocalesMenuButton,
  UserMenu,
  Logout,
  useBasename,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { isQuoteLinkOnly } from '../authProvider/quoteLink.ts';
import { LOCALES } from '../i18n/index.ts';
import { DocumentTitle } from './DocumentTitle.tsx';
import { AppMenu } from './AppMenu.tsx';
import { useAppKind } from '../custom/appKind.ts';
import { GlobalSearch } from '../custom/search/GlobalSearch.tsx';
import { ShortcutsHelp } from '../custom/shortcuts/ShortcutsHelp.tsx';
import { NotificationBell } from '../live/NotificationBell.tsx';
import { useLiveEvents } from '../live/useLive.ts';

/** A quote link's holder is signed in as nobody: instead of the user menu, the way to sign in. */
function SignInButton() {
  const translate = useTranslate();
  const basename = useBasename();
  return (
    <Button color="inherit" component={Link} to={`${basename}/login`} startIcon={<LoginIcon />}>
      {translate('app.auth.sign_in')}
    </Button>
  );
}

function TopBar() {
  const linkOnly = isQuoteLinkOnly();
  // The global search is the back office's (issue 18); the portal's lists have their own search.
  const searches = useAppKind() === 'backoffice' && !linkOnly;
  // One live stream per signed-in user's tab (issue 19); a quote link's holder is nobody.
  useLiveEvents(!linkOnly);
  return (
    <AppBar
      userMenu={
        linkOnly ? (
          <SignInButton />
        ) : (
          <UserMenu>
            <Logout />
          </UserMenu>
        )
      }
      toolbar={<LocalesMenuButton languages={LOCALES} />}
      // A link opens one quote: no menu of pages it cannot open, so no button that shows one either.
      sx={linkOnly ? { '& .RaAppBar-menuButton': { display: 'none' } } : undefined}
    >
      {/* Each screen has its own level-one heading; react-admin's title slot would be an empty one. */}
      {searches && <GlobalSearch />}
      <Box sx={{ flex: searches ? { xs: 0, sm: 1 } : 1 }} />
      {searches && <ShortcutsHelp />}
      {searches && <NotificationBell />}
    </AppBar>
  );
}

/** No sidebar at all: the holder of a quote e-mail's link can open that quote and nothing else. */
function NoSidebar() {
  return null;
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <RaLayout
      appBar={TopBar}
      menu={AppMenu}
      {...(isQuoteLinkOnly() ? { sidebar: NoSidebar } : {})}
      // react-admin's layout grows to its widest content (min-width: fit-content), so one wide table made
      // the whole page scroll sideways at 375 px; with these the table scrolls inside its own card.
      sx={{
        minWidth: 0,
        '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar, & .RaLayout-content': { minWidth: 0 },
      }}
    >
      <DocumentTitle />
      {children}
    </RaLayout>
  );
}
