import { Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, Box, Button, CssBaseline } from '@mui/material';
import {
  AccessDenied,
  AdminContext,
  AuthCallback,
  AuthenticationError,
  CoreAdminUI,
  Error as ErrorPage,
  LoadingPage,
  memoryStore,
  type I18nProvider,
} from 'react-admin';
import { AppKindContext, type AppKind } from '../custom/appKind.ts';
import { createHttpClient } from '../dataProvider/http.ts';
import { createDataProvider } from '../dataProvider/index.ts';
import { createAuthProvider } from '../authProvider/index.ts';
import { errorMessage } from './errorCatalogue.ts';
import { setFlash } from './flash.ts';
import { APP_BASENAME as BASENAME, loginAddressFromHere } from './returnTo.ts';
import { useSelfValidatingForms } from './selfValidatingForms.ts';
import {
  createI18nProvider,
  loadedLanguage,
  loadLanguage,
  START_TEXTS,
  storedLocale,
} from '../i18n/index.ts';
import { buildResources } from '../resources/index.tsx';
import { installOverrides } from '../resources/overrides.ts';
import { registry } from '../schema.ts';
import { withErrorCatalogue } from './errors.ts';
import {
  accessDeniedRoute,
  BackofficeGuards,
  firstRunRoute,
  PortalGuards,
  PageNotFound,
  portalRoutes,
  ssoCallbackRoute,
} from './guards.tsx';
import { Waiting } from './Waiting.tsx';
import { exportRoutes } from '../custom/exports/routes.tsx';
import { twoFactorRoutes } from '../custom/two-factor/routes.tsx';
import { reportRoutes } from '../custom/reports/routes.tsx';
import { serviceOverviewRoutes } from '../custom/service-overview/routes.tsx';
import { Dashboard } from '../custom/dashboard/routes.tsx';
import { lazyWithTimeout } from './lazy.ts';
import { APP_PORTAL_TOKEN, getItem } from '../dataProvider/storage.ts';
import { Notifications } from './Notifications.tsx';
import { theme } from './theme.ts';

// The resources' own screens, from their folders, before any route is built or screen rendered.
installOverrides();

const LoginScreen = lazyWithTimeout(() => import('./LoginPage.tsx').then((m) => ({ default: m.LoginPage })));

/** The login page is a chunk of its own: a user with a session never needs it. */
function LoginPage() {
  return (
    <Suspense fallback={<Waiting />}>
      <LoginScreen />
    </Suspense>
  );
}

const LayoutScreen = lazyWithTimeout(() => import('./Layout.tsx').then((m) => ({ default: m.Layout })));

/**
 * The frame of the signed-in screens (app bar, menu, search, notifications, live events) is a chunk of
 * its own too: the login page, a first visit's screen, never shows it (docs/benchmarks.md, issue 40).
 */
function Layout({ children }: { children: ReactNode }) {
  return (
    <Suspense fallback={<Waiting />}>
      <LayoutScreen>{children}</LayoutScreen>
    </Suspense>
  );
}

/** A page load that will show the login page (asked for, or no session to open anything else). */
const headsForLogin = () =>
  /\/login(\/|$)/.test(window.location.pathname) || getItem(APP_PORTAL_TOKEN) === null;

type Start = 'loading' | 'ready' | 'failed';

/**
 * The language shown at start (the stored one, else Dutch) is a chunk of its own: it downloads beside
 * the portal's status call, and the app renders once it is there, so no text ever shows as a key or in
 * another language first. A failed download says so, in that language, with a button that tries again.
 */
function useStartingLanguage(): [Start, () => void] {
  const [start, setStart] = useState<Start>(() => (loadedLanguage(storedLocale()) ? 'ready' : 'loading'));
  useEffect(() => {
    if (start !== 'loading') return;
    let live = true;
    loadLanguage(storedLocale()).then(
      () => live && setStart('ready'),
      () => live && setStart('failed'),
    );
    return () => {
      live = false;
    };
  }, [start]);
  return [start, () => setStart('loading')];
}

function LanguageFailed({ onRetry }: { onRetry: () => void }) {
  const texts = START_TEXTS[storedLocale()];
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: '100vh', p: 2 }}>
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={onRetry}>
            {texts.retry}
          </Button>
        }
      >
        {texts.failed}
      </Alert>
    </Box>
  );
}

/** One of the two apps: the same providers and screens, told apart by kind (menu, permissions, basename). */
export function AppShell({ kind }: { kind: AppKind }) {
  useSelfValidatingForms();
  // Downloads beside the language and the status call, not after them.
  useState(() => (headsForLogin() ? LoginScreen : LayoutScreen).preload());
  const [start, retryStart] = useStartingLanguage();
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
    // The portal's guards may load the user while the starting language still downloads: the data
    // provider exists from the start and translates through the i18n provider once there is one.
    const i18n: { provider?: I18nProvider } = {};
    const translate = (key: string, options?: object) => i18n.provider?.translate(key, options) ?? key;
    // A 422's lines are said in the user's language where the apps know their words (./errors.ts).
    const dataProvider = withErrorCatalogue(createDataProvider(http), translate);
    return {
      dataProvider,
      authProvider: createAuthProvider({ http, app: kind }),
      translateWith: (provider: I18nProvider) => {
        i18n.provider = provider;
      },
      // react-admin's own preferences live in memory: the language is kept under 'locale' by the
      // i18n provider, list layouts by the list screen (per user and route).
      store: memoryStore(),
    };
  }, [kind]);
  const i18nProvider = useMemo(() => {
    if (start !== 'ready') return undefined;
    const i18nProvider = createI18nProvider();
    providers.translateWith(i18nProvider);
    return i18nProvider;
  }, [start, providers]);
  const loadUser = useMemo(() => () => providers.dataProvider.me(), [providers]);

  const admin = !i18nProvider ? (
    start === 'failed' ? (
      <LanguageFailed onRetry={retryStart} />
    ) : (
      <Waiting />
    )
  ) : (
    // react-admin's <Admin> is AdminContext around AdminUI, whose default login page (a react-hook-form
    // form) and default English messages would stay in the first download even when replaced: the two
    // halves are composed here with react-admin's own defaults for everything else.
    <AdminContext
      basename={BASENAME[kind]}
      dataProvider={providers.dataProvider}
      authProvider={providers.authProvider}
      i18nProvider={i18nProvider}
      store={providers.store}
      theme={theme}
    >
      <CssBaseline enableColorScheme>
        <CoreAdminUI
          layout={Layout}
          // The back office starts on the operator's dashboard (a lazy chunk); the portal at its tickets.
          dashboard={kind === 'backoffice' ? Dashboard : undefined}
          loginPage={LoginPage}
          catchAll={PageNotFound}
          accessDenied={AccessDenied}
          authCallbackPage={AuthCallback}
          authenticationError={AuthenticationError}
          error={ErrorPage}
          loading={LoadingPage}
          title="React Admin"
          disableTelemetry
          requireAuth
        >
          {[
            ...buildResources(registry, kind, PageNotFound),
            ...twoFactorRoutes(),
            ...(kind === 'portal'
              ? [...portalRoutes(LoginPage), ...serviceOverviewRoutes()]
              : [...exportRoutes(), ...reportRoutes(), accessDeniedRoute(), firstRunRoute()]),
            ssoCallbackRoute(),
          ]}
        </CoreAdminUI>
        <Notifications />
      </CssBaseline>
    </AdminContext>
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
