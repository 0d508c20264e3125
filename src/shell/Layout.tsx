import type { ReactNode } from 'react';
import { AppBar, Layout as RaLayout, LocalesMenuButton, TitlePortal, UserMenu, Logout } from 'react-admin';
import { LOCALES } from '../i18n/index.ts';
import { DocumentTitle } from './DocumentTitle.tsx';

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
