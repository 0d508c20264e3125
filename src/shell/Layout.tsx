import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import { AppBar, Layout as RaLayout, LocalesMenuButton, Menu, UserMenu, Logout } from 'react-admin';
import { LOCALES } from '../i18n/index.ts';
import { DocumentTitle } from './DocumentTitle.tsx';
import { useAppKind } from '../custom/appKind.ts';
import { ExportsMenuItem } from '../custom/exports/routes.tsx';

function TopBar() {
  return (
    <AppBar
      userMenu={
        <UserMenu>
          <Logout />
        </UserMenu>
      }
      toolbar={<LocalesMenuButton languages={LOCALES} />}
    >
      {/* Each screen has its own level-one heading; react-admin's title slot would be an empty one. */}
      <Box sx={{ flex: 1 }} />
    </AppBar>
  );
}

/** The resources' entries; the back office adds its exports page. */
function AppMenu() {
  const kind = useAppKind();
  return (
    <Menu>
      <Menu.ResourceItems />
      {kind === 'backoffice' && <ExportsMenuItem />}
    </Menu>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <RaLayout
      appBar={TopBar}
      menu={AppMenu}
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
