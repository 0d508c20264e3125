import { useMemo } from 'react';
import { Admin, memoryStore } from 'react-admin';
import { AppKindContext, type AppKind } from '../custom/appKind.ts';
import { createHttpClient } from '../dataProvider/http.ts';
import { createDataProvider } from '../dataProvider/index.ts';
import { createAuthProvider, errorMessage } from '../authProvider/index.ts';
import { setFlash } from './flash.ts';
import { APP_BASENAME as BASENAME, loginAddressFromHere } from './returnTo.ts';
import { useSelfValidatingForms } from './selfValidatingForms.ts';
import { createI18nProvider } from '../i18n/index.ts';
import { buildResources } from '../resources/index.tsx';
import { registry } from '../schema.ts';
import { withErrorCatalogue } from './errors.ts';
import {
  accessDeniedRoute,
  BackofficeGuards,
  PortalGuards,
  PortalNotFound,
  portalRoutes,
} from './guards.tsx';
import { Layout } from './Layout.tsx';
import { exportRoutes } from '../custom/exports/routes.tsx';
import { LoginPage } from './LoginPage.tsx';
import { Notifications } from './Notifications.tsx';
import { theme } from './theme.ts';

/** One of the two apps: the same providers and screens, told apart by kind (menu, permissions, basename). */
export function AppShell({ kind }: { kind: AppKind }) {
  useSelfValidatingForms();
  const providers = useMemo(() => {
    const http = createHttpClient({
      // The login page shows why the session ended ('logged in elsewhere'), after the full reload, and
      // a login there returns to the page the user was on.
      onSessionEnded: (error) => {
        const why = errorMessage(error);
        if (typeof why === 'string') setFlash(why);
        window.location.assign(loginAddressFromHere(kind));
      },
    });
    const i18nProvider = createI18nProvider();
    // A 422's lines are said in the user's language where the apps know their words (./errors.ts).
    const dataProvider = withErrorCatalogue(createDataProvider(http), i18nProvider.translate);
    return {
      dataProvider,
      authProvider: createAuthProvider({ http, app: kind }),
      i18nProvider,
      // react-admin's own preferences live in memory: the language is kept under 'locale' by the
      // i18n provider, list layouts by the list screen (per user and route).
      store: memoryStore(),
    };
  }, [kind]);
  const loadUser = useMemo(() => () => providers.dataProvider.me(), [providers]);

  const admin = (
    <Admin
      basename={BASENAME[kind]}
      {...providers}
      layout={Layout}
      loginPage={LoginPage}
      notification={Notifications}
      theme={theme}
      disableTelemetry
      requireAuth
      {...(kind === 'portal' ? { catchAll: PortalNotFound } : {})}
    >
      {[
        ...buildResources(registry, kind),
        ...(kind === 'portal' ? portalRoutes(LoginPage) : [...exportRoutes(), accessDeniedRoute()]),
      ]}
    </Admin>
  );
  return (
    <AppKindContext.Provider value={kind}>
      {/* The portal's route guards (SPEC 2) decide before react-admin renders a route. */}
      {kind === 'portal' ? (
        <PortalGuards basename={BASENAME[kind]} loadUser={loadUser}>
          {admin}
        </PortalGuards>
      ) : (
        <BackofficeGuards>{admin}</BackofficeGuards>
      )}
    </AppKindContext.Provider>
  );
}
