import { useEffect, useState, type ReactNode } from 'react';
import { Box, Button, useMediaQuery, type Theme } from '@mui/material';
import LoginIcon from '@mui/icons-material/Login';
import {
  AppBar,
  Layout as RaLayout,
  LocalesMenuButton,
  Sidebar,
  type SidebarProps,
  useBasename,
  useSidebarState,
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
import { useKeepLanguage } from './keepLanguage.ts';
import { UserMenuButton } from './UserMenuButton.tsx';

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
  // An operator's mails are written in the language they use here (notifications are operators').
  useKeepLanguage(searches);
  return (
    <AppBar
      userMenu={linkOnly ? <SignInButton /> : <UserMenuButton />}
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

/**
 * react-admin's menu, closed when the window narrows to a phone's width. There the menu is a drawer
 * over the page, and a menu that stood open beside the page opened that drawer by itself: it covered
 * nothing visible but hid the whole page from assistive technology, and stayed so after it closed. So
 * for the one render in which the width has just narrowed with the menu open, there is no menu; the
 * menu is closed, and comes back closed, as on a phone's first load. Its button opens it.
 */
function NarrowingSidebar(props: SidebarProps) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [open, setOpen] = useSidebarState();
  // Whether the menu was last drawn at a phone's width.
  const [drawnPhone, setDrawnPhone] = useState(phone);
  const narrowedOpen = phone && !drawnPhone && open;
  if (!narrowedOpen && drawnPhone !== phone) setDrawnPhone(phone);
  useEffect(() => {
    if (narrowedOpen) setOpen(false);
  }, [narrowedOpen, setOpen]);
  return narrowedOpen ? null : <Sidebar {...props} />;
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <RaLayout
      appBar={TopBar}
      menu={AppMenu}
      sidebar={isQuoteLinkOnly() ? NoSidebar : NarrowingSidebar}
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
