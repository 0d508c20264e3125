/**
 * Sign-in journeys and the texts around them (issue 14, items 1, 3 and 16), each test in one language
 * (nl, en or de; its wording in the others is asserted at its catalogue key in
 * tests/browser/journey-wording.test.ts):
 *
 * 1. Logging out ends on the app's own login page: the portal's /app/login (not a blank /login outside
 *    /app), at 1280 and at 375 px, and the back office's /login; a session that ends by itself (a failed
 *    refresh, a login elsewhere) ends there too, saying why in the user's language.
 * 3. After login the user lands on the page that was asked for (a deep link), and only on a page of the
 *    same app (no other host, no protocol-relative address).
 * 16. No raw translation key, no English sentence in the Dutch UI, no browser bubble: the login page and
 *    the forms check themselves, and a required date field says 'Verplicht'.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  DEMO_PASSWORD,
  expectAccessible,
  firstRecordRow,
  inLanguage,
  startIn,
  storeSession,
  type Lang,
} from './support.ts';

const CLIENT = 'client@example.com';
const ADMIN = 'admin@example.com';
/** Only this file signs the first-line operator in twice (logged in elsewhere). */
const OPERATOR = 'operator@example.com';

const TEXT = {
  nl: {
    email: 'E-mailadres',
    password: 'Wachtwoord',
    signIn: 'Inloggen',
    userMenu: 'Profiel',
    logout: 'Uitloggen',
    portalTitle: 'Inloggen op het Acme IT portal',
    backOfficeTitle: 'Inloggen op de backoffice',
    emailRequired: 'E-mailadres is verplicht',
    passwordRequired: 'Wachtwoord is verplicht',
    elsewhere: 'Deze operator is elders ingelogd. Log opnieuw in om hier verder te werken.',
    required: 'Verplicht',
    save: 'Opslaan',
    executedAt: 'Uitgevoerd op',
    quotes: 'Offertes',
  },
  en: {
    email: 'Email address',
    password: 'Password',
    signIn: 'Sign in',
    userMenu: 'Profile',
    logout: 'Logout',
    portalTitle: 'Sign in to the Acme IT portal',
    backOfficeTitle: 'Sign in to the back office',
    emailRequired: 'Email address is required',
    passwordRequired: 'Password is required',
    elsewhere: 'This operator is logged in elsewhere. Log in again to continue working here.',
    required: 'Required',
    save: 'Save',
    executedAt: 'Executed at',
    quotes: 'Quotes',
  },
  de: {
    email: 'E-Mail-Adresse',
    password: 'Passwort',
    signIn: 'Anmelden',
    userMenu: 'Profil',
    logout: 'Abmelden',
    portalTitle: 'Beim Acme IT Portal anmelden',
    backOfficeTitle: 'Beim Backoffice anmelden',
    emailRequired: 'E-Mail-Adresse ist ein Pflichtfeld',
    passwordRequired: 'Passwort ist ein Pflichtfeld',
    elsewhere:
      'Dieser Bearbeiter ist an anderer Stelle angemeldet. Melden Sie sich erneut an, um hier weiterzuarbeiten.',
    required: 'Pflichtfeld',
    save: 'Speichern',
    executedAt: 'Ausgeführt am',
    quotes: 'Angebote',
  },
} as const;

/** The server's sentence that must never reach the screen (SPEC 8 replaces it). */
const SERVER_ELSEWHERE = 'You cannot have multiple login sessions per account.';

/** Fills the login form that is on screen and submits it. */
async function submitLogin(page: Page, lang: Lang, email: string) {
  const t = TEXT[lang];
  await page.getByLabel(t.email).fill(email);
  await page.getByLabel(t.password).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: t.signIn, exact: true }).click();
}

async function logOut(page: Page, lang: Lang) {
  await page.getByRole('button', { name: TEXT[lang].userMenu }).click();
  await page.getByRole('menuitem', { name: TEXT[lang].logout }).click();
}

const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('APP_PORTAL_TOKEN'));

/** The page's address without its origin: '/app/login?next=/quotes/2'. */
function address(page: Page): string {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
}

test(
  inLanguage('nl', '(1) logging out of the portal ends on the portal login page, at 1280 and at 375 px'),
  async ({ page }) => {
    const lang = 'nl';
    const t = TEXT[lang];
    await startIn(page, lang);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/app/login');
      await submitLogin(page, lang, CLIENT);
      await expect(page).toHaveURL(/\/app\/tickets$/);
      await logOut(page, lang);
      await expect(page).toHaveURL(/\/app\/login$/);
      await expect(page.getByRole('heading', { level: 1, name: t.portalTitle })).toBeVisible();
      await expect(page.getByLabel(t.email)).toBeVisible();
      expect(await storedToken(page)).toBeNull();
      // No axe here: this is the plain login page, which the translation sweep scans at both widths.
    }
  },
);

test(inLanguage('en', '(1) logging out of the back office ends on its own login page'), async ({ page }) => {
  const lang = 'en';
  const t = TEXT[lang];
  await startIn(page, lang);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/login');
    await submitLogin(page, lang, ADMIN);
    await expect(page).not.toHaveURL(/\/login/);
    await logOut(page, lang);
    await expect(page).toHaveURL(/\/login$/);
    expect(new URL(page.url()).pathname).toBe('/login');
    await expect(page.getByRole('heading', { level: 1, name: t.backOfficeTitle })).toBeVisible();
    expect(await storedToken(page)).toBeNull();
  }
});

test(
  inLanguage(
    'de',
    '(1) a portal session that ends by itself (refresh refused) ends on the portal login page and comes back after a login',
  ),
  async ({ page, context }) => {
    const lang = 'de';
    const t = TEXT[lang];
    await startIn(page, lang);
    await page.goto('/app/login');
    await submitLogin(page, lang, CLIENT);
    await expect(page).toHaveURL(/\/app\/tickets$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Tickets' })).toBeVisible();
    // Nothing of the first screen still on its way (its rows come after the view and presets they
    // wait for): the next call is the menu's. Not 'networkidle': the live events stream stays open.
    await expect(firstRecordRow(page)).toBeVisible();
    // The session ends under the page: the access token no longer valid, the refresh cookie gone.
    await context.clearCookies();
    await page.evaluate(() => localStorage.setItem('APP_PORTAL_TOKEN', 'no-longer-valid'));
    await page.getByRole('menuitem', { name: t.quotes }).click();
    await expect(page).toHaveURL(/\/app\/login\?next=\/quotes$/);
    await expect(page.getByRole('heading', { level: 1, name: t.portalTitle })).toBeVisible();
    expect(await storedToken(page)).toBeNull();
    await submitLogin(page, lang, CLIENT);
    await expect(page).toHaveURL(/\/app\/quotes$/);
    await expect(page.getByRole('heading', { level: 1, name: t.quotes })).toBeVisible();
  },
);

test(
  inLanguage(
    'nl',
    '(1, 16) logged in elsewhere: the back office ends on its login page with SPEC 8’s text, never the server’s English',
  ),
  async ({ page, browser, baseURL }) => {
    const lang = 'nl';
    const t = TEXT[lang];
    await startIn(page, lang);
    // Signed in here (the login form is the subject of the tests above), then elsewhere, before this
    // page has asked anything: its first call learns it. With the page open first, whichever of its
    // own calls came next (a click's, or one still running from its load) learned it, at a moment
    // the test could not choose.
    await storeSession(page, OPERATOR);
    await logInElsewhere(browser, baseURL!, OPERATOR);
    await page.goto('/companies');
    await expect(page).toHaveURL(/\/login\?next=\/companies$/);
    await expect(page.getByRole('heading', { level: 1, name: t.backOfficeTitle })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText(t.elsewhere);
    await expect(page.getByText(SERVER_ELSEWHERE)).toHaveCount(0);
    await expectAccessible(page, `back-office login after a login elsewhere, ${lang}`);
    // Signing in here again returns to the page the operator was on.
    await submitLogin(page, lang, OPERATOR);
    await expect(page).toHaveURL(/\/companies$/);
  },
);

test(
  inLanguage(
    'en',
    '(1, 16) logged in elsewhere while a back-office page is open: it goes to its login page by itself',
  ),
  async ({ page, browser, baseURL }) => {
    const lang = 'en';
    const t = TEXT[lang];
    await startIn(page, lang);
    await storeSession(page, OPERATOR);
    const streaming = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/events' && r.status() === 200,
    );
    await page.goto('/companies');
    await expect(firstRecordRow(page)).toBeVisible();
    await streaming;
    // The page has loaded and asks nothing more of its own: its live stream ends with the session
    // (server/live/plugin.ts), and reconnecting learns why, well before the stream's 20 s heartbeat.
    await logInElsewhere(browser, baseURL!, OPERATOR);
    await expect(page).toHaveURL(/\/login\?next=\/companies$/);
    await expect(page.getByRole('alert')).toHaveText(t.elsewhere);
  },
);

test(
  inLanguage(
    'de',
    '(issue 17) a portal login reaches its first ticket row without GET /api/auth/me; a reload asks it',
  ),
  async ({ page }) => {
    const lang = 'de';
    await startIn(page, lang);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/auth/me') asked.push(r.method());
    });
    const firstRow = page.locator('table tbody tr:not([data-testid="skeleton-row"])').first();
    await page.goto('/app/login');
    await submitLogin(page, lang, CLIENT);
    await expect(firstRow).toBeVisible();
    // The login's answer carried the user: the guards took it instead of asking.
    expect(asked).toEqual([]);
    const me = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/auth/me');
    await page.reload();
    await me;
    await expect(firstRow).toBeVisible();
    expect(asked).toEqual(['GET']);
  },
);

test(
  inLanguage('nl', '(3) a deep link into the portal lands on the page asked for after login'),
  async ({ page }) => {
    const lang = 'nl';
    await startIn(page, lang);
    await page.goto('/app/quotes/2');
    await expect(page).toHaveURL(/\/app\/login\?next=\/quotes\/2$/);
    await submitLogin(page, lang, CLIENT);
    await expect(page).toHaveURL(/\/app\/quotes\/2$/);
    await expect(page.getByRole('heading', { level: 1, name: /Offerte netwerkuitbreiding/ })).toBeVisible();
  },
);

test(
  inLanguage('en', '(3) a deep link into the back office lands on the page asked for after login'),
  async ({ page }) => {
    const lang = 'en';
    await startIn(page, lang);
    await page.goto('/companies/1');
    await expect(page).toHaveURL(/\/login$/);
    await submitLogin(page, lang, ADMIN);
    await expect(page).toHaveURL(/\/companies\/1$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  },
);

test(
  inLanguage(
    'de',
    '(3) the way back after login stays in the app: no other host, no protocol-relative address',
  ),
  async ({ page, baseURL }) => {
    const lang = 'de';
    await startIn(page, lang);
    for (const next of [
      '//evil.example/x',
      'https://evil.example/',
      '/\\evil.example',
      '/..//evil.example',
    ]) {
      await page.goto(`/app/login?next=${encodeURIComponent(next)}`);
      await submitLogin(page, lang, CLIENT);
      await expect(page).toHaveURL(`${baseURL}/app/tickets`);
      await logOut(page, lang);
      await expect(page).toHaveURL(/\/app\/login$/);
    }
    // The back office does not send to the portal either.
    await page.goto(`/login?next=${encodeURIComponent('//evil.example')}`);
    await submitLogin(page, lang, ADMIN);
    await expect(page).not.toHaveURL(/\/login/);
    expect(new URL(page.url()).origin).toBe(baseURL);
    expect(address(page)).not.toContain('evil');
  },
);

test(
  inLanguage('nl', '(16) the login page checks its own fields in the user’s language, without the browser'),
  async ({ page }) => {
    const lang = 'nl';
    const t = TEXT[lang];
    await startIn(page, lang);
    const logins: string[] = [];
    page.on('request', (r) => r.url().includes('/api/auth/login') && logins.push(r.url()));
    for (const path of ['/app/login', '/login']) {
      await page.goto(path);
      await expect(page.locator('form')).toHaveJSProperty('noValidate', true);
      await page.getByRole('button', { name: t.signIn, exact: true }).click();
      await expect(page.getByText(t.emailRequired)).toBeVisible();
      await expect(page.getByText(t.passwordRequired)).toBeVisible();
      await page.getByLabel(t.email).fill(CLIENT);
      await page.getByRole('button', { name: t.signIn, exact: true }).click();
      await expect(page.getByText(t.emailRequired)).toHaveCount(0);
      await expect(page.getByText(t.passwordRequired)).toBeVisible();
      await expectAccessible(page, `login page with required fields, ${path}, ${lang}`);
    }
    expect(logins).toEqual([]);
  },
);

test(
  inLanguage(
    'en',
    '(16) a required date field says what is missing, never a raw key, and no form leaves it to the browser',
  ),
  async ({ page }) => {
    const lang = 'en';
    const t = TEXT[lang];
    await startIn(page, lang);
    await page.goto('/login');
    await submitLogin(page, lang, ADMIN);
    await expect(page).not.toHaveURL(/\/login/);
    await page.goto('/time-registrations/create');
    const date = page.getByRole('group', { name: t.executedAt });
    await expect(date).toBeVisible();
    await date.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Backspace');
    await page.getByRole('button', { name: t.save }).click();
    const field = page.locator('.ra-input-executed_at, .MuiFormControl-root').filter({ has: date });
    await expect(field.getByText(t.required, { exact: true })).toBeVisible();
    await expect(page.getByText(/@@react-admin@@|ra\.validation\./)).toHaveCount(0);
    expect(await page.locator('form:not([novalidate])').count()).toBe(0);
    await page.goto('/clients/create');
    await expect(page.locator('form')).toHaveCount(1);
    expect(await page.locator('form:not([novalidate])').count()).toBe(0);
  },
);

/** Logs `email` in from another browser: the server replaces the session of `page` (operators have one). */
async function logInElsewhere(browser: Browser, baseURL: string, email: string) {
  const other = await browser.newContext({ baseURL });
  const res = await other.request.post('/api/auth/login', {
    data: { username: email, password: DEMO_PASSWORD },
  });
  expect(res.status()).toBe(200);
  await other.close();
}
