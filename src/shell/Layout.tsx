import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import { AppBar, Layout as RaLayout, TitlePortal, UserMenu, Logout } from 'react-admin';
import { LocaleSwitcher } from './LocaleSwitcher.tsx';
import { DocumentTitle } from './DocumentTitle.tsx';

function TopBar() {
  return (
    <AppBar
      userMenu={
        <UserMenu>
          <Logout />
        </UserMenu>
      }
      toolbar={
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, bgcolor: 'background.paper', borderRadius: 1, px: 1, py: 0.5 }}>
          <LocaleSwitcher />
        </Box>
      }
    >
      <TitlePortal />
    </AppBar>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <RaLayout appBar={TopBar}>
      <DocumentTitle />
      {children}
    </RaLayout>
  );
}
