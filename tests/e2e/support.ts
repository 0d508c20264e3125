import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import axeCore from 'axe-core';

export const DEMO_PASSWORD = 'demo';

export type App = 'portal' | 'backoffice';

/** Where a login lands in each app: its tickets list. */
export const LANDING: Record<App, string> = { portal: '/app/tickets', backoffice: '/tickets' };

/**
 * Fills and sends the login form of the page that shows it (/app/login or /login). Only for the tests
 * whose subject is the login itself (journeys-auth, csp, portal-guards, portal-signin have their own
 * variants too); the others sign in with signIn, without the form.
 */
export async function submitLogin(page: Page, email: string) {
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/wachtwoord|password|passwort/i).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: /inloggen|sign in|anmelden/i }).click();
}

/** How many times this worker signed in: each signIn's init script has its own once-only mark. */
let signIns = 0;

/**
 * Signs in without the login form, for the tests whose subject is not the login: POST /api/auth/login
 * through the page's own request context, so the refresh cookie lands in the browser context as after a
 * login in the page, and the session keys the apps read (src/dataProvider/storage.ts: APP_PORTAL_TOKEN,
 * APP_USER as JSON, no quote link) are stored before the first script of the next page load runs, as the
 * login page's auth provider stores them. Nothing is loaded: the test opens the page it wants (signIn
 * does both). Returns the access token, for calls to the API as the same user.
 *
 * The keys are stored once (a mark in sessionStorage), so a later logout, reload or navigation sees only
 * what the app itself left. `locale` is stored with them (the app's language choice). An init script of
 * the test that clears localStorage must come before this one: they run in the order they were added.
 */
export async function storeSession(
  page: Page,
  email: string,
  { locale }: { locale?: 'nl' | 'en' | 'de' } = {},
): Promise<string> {
  const res = await page.request.post('/api/auth/login', {
    data: { username: email, password: DEMO_PASSWORD },
  });
  expect(res.ok(), `login of ${email}: ${res.status()} ${await res.text()}`).toBe(true);
  const { access_token: token, user } = (await res.json()) as { access_token: string; user: unknown };
  const mark = `e2e-signed-in-${++signIns}`;
  await page.addInitScript(
    ({ mark, token, user, locale }) => {
      try {
        if (sessionStorage.getItem(mark)) return;
        sessionStorage.setItem(mark, '1');
        localStorage.setItem('APP_PORTAL_TOKEN', token);
        localStorage.setItem('APP_USER', JSON.stringify(user));
        localStorage.removeItem('APP_QUOTE_TOKEN');
        localStorage.removeItem('APP_QUOTE_PATH');
        if (locale) localStorage.setItem('locale', locale);
      } catch {
        // A frame without storage of its own (about:blank, a sandboxed frame): not the app.
      }
    },
    { mark, token, user, locale },
  );
  return token;
}

/**
 * storeSession, then opens `to` (default: the app's tickets list, where a login lands): one page load
 * instead of the login form's three (login page, tickets list, the page the test wants).
 */
export async function signIn(
  page: Page,
  email: string,
  app: App = 'portal',
  { to = LANDING[app], locale }: { to?: string; locale?: 'nl' | 'en' | 'de' } = {},
): Promise<string> {
  const token = await storeSession(page, email, { locale });
  await page.goto(to);
  return token;
}

/**
 * axe's rules that it marks experimental, and so leaves out unless named: those named here run too.
 * label-content-name-mismatch is WCAG 2.5.3 (label in name): a control whose visible text is not in its
 * accessible name (the user menu's button once showed the user's name and was called 'Profile').
 */
export const EXPERIMENTAL_AXE_RULES = ['label-content-name-mismatch'] as const;

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}
interface AxeWindow {
  axe: { run(context: Document, options: object): Promise<unknown> };
}

/**
 * axe-core in every frame of the page that does not have it yet, as @axe-core/playwright's legacy mode
 * puts it there (axe.run in the page, same-origin frames only: the apps' policy, default-src 'self',
 * allows no other). The builder sends the 550 kB source twice per scan; a page keeps it across the
 * apps' own navigations, so a journey or the sweep scanning one document many times pays for it once:
 * a scan of a ticket list took 0.67 s instead of 0.97 s. axe reads the DOM afresh on every run.
 */
async function withAxe(page: Page) {
  for (const frame of page.frames()) {
    if (await frame.evaluate(() => 'axe' in window)) continue;
    await frame.evaluate(axeCore.source);
    await frame.evaluate(() =>
      (window as unknown as { axe: { configure(spec: object): void } }).axe.configure({
        allowedOrigins: ['<same_origin>'],
        branding: { application: 'playwright' },
      }),
    );
  }
}

/**
 * axe-core on the page as it is: no violations at all (WCAG 2.1 A and AA rules, best practices and the
 * experimental rules named above).
 */
export async function expectAccessible(page: Page, where: string) {
  // A toast or dialog still fading in has blended colours: axe would measure a contrast nobody sees.
  const settled = () =>
    page
      .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
        timeout: 5_000,
      })
      .catch(() => undefined);
  await settled();
  // Every rule runs, the experimental ones named above too; only the violations are gathered in detail
  // (the passes and the incomplete ones are not read here), which halves axe's time on a full screen.
  const options = {
    resultTypes: ['violations'],
    rules: Object.fromEntries(EXPERIMENTAL_AXE_RULES.map((id) => [id, { enabled: true }])),
  };
  const analyze = async (): Promise<{ violations: AxeViolation[] }> => {
    await withAxe(page);
    return page.evaluate((o) => (window as unknown as AxeWindow).axe.run(document, o), options) as Promise<{
      violations: AxeViolation[];
    }>;
  };
  let results = await analyze();
  // A toast that began to fade out while axe ran (its time was up just then) is measured mid-fade once
  // more, after it has gone: a contrast that is really too low is still there and still fails.
  if (results.violations.some((v) => v.id === 'color-contrast')) {
    await settled();
    results = await analyze();
  }
  // A screen scanned while it still draws (a list that has not yet put its title up) lacks its heading
  // for a moment: the scan is made again once a level-one heading is there, or after 5 s without one,
  // when the violation stands. The same rules run; only the moment of the second look differs.
  if (results.violations.some((v) => v.id === 'page-has-heading-one')) {
    await page
      .locator('h1')
      .first()
      .waitFor({ state: 'visible', timeout: 5_000 })
      .catch(() => undefined);
    await settled();
    results = await analyze();
  }
  const violations = results.violations.map(
    (v) =>
      `${where}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')}`,
  );
  expect(violations).toEqual([]);
}

/** Each test starts with an empty localStorage (the first page load only, so a reload keeps what it set). */
export async function startWithEmptyStorage(page: Page) {
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('e2e-started')) {
      localStorage.clear();
      sessionStorage.setItem('e2e-started', '1');
    }
  });
}

/** The apps' languages (src/i18n: LOCALES). */
export type Lang = 'nl' | 'en' | 'de';

/**
 * One language per journey: a browser test whose subject is not translation runs in one language, and a
 * file spreads its tests over nl, en and de, so each language is driven somewhere. The translation sweep
 * sees every screen in all three; the wording a journey no longer sees in the other languages is asserted
 * at its catalogue key (tests/browser/journey-wording.test.ts). The title ends in the language: 'title (de)'.
 */
export const inLanguage = (lang: Lang, title: string) => `${title} (${lang})`;

/**
 * Starts the test in `lang`: localStorage empty but for the app's language choice on the first page load
 * (a reload keeps what the test set; a logout keeps the choice). Checks that the title names that
 * language (inLanguage), so the title and what the test drives cannot drift apart.
 */
export async function startIn(page: Page, lang: Lang) {
  expect(test.info().title, 'the title names the language the test runs in').toMatch(
    new RegExp(`\\(${lang}\\)$`),
  );
  await page.addInitScript((locale) => {
    if (!sessionStorage.getItem('e2e-started')) {
      localStorage.clear();
      localStorage.setItem('locale', locale);
      sessionStorage.setItem('e2e-started', '1');
    }
  }, lang);
}

/** Draws a short zigzag on the signature pad with the mouse and checks that it left ink. */
export async function sign(page: Page) {
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + 150);
  await page.mouse.down();
  for (const [dx, dy] of [
    [80, 40],
    [140, 160],
    [200, 50],
    [260, 150],
  ] as const) {
    await page.mouse.move(box.x + dx, box.y + dy, { steps: 5 });
  }
  await page.mouse.up();
  // The zigzag left black ink on the canvas (the pen of SPEC 9), not just a pad that says it is signed.
  expect(await inkOn(page)).toBeGreaterThan(300);
}

/** How many pixels of the signature pad are black ink. */
export async function inkOn(page: Page): Promise<number> {
  return page.getByTestId('signature-pad').evaluate((canvas: HTMLCanvasElement) => {
    const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
    let dark = 0;
    for (let i = 0; i < data.length; i += 4)
      if (data[i + 3]! > 128 && data[i]! + data[i + 1]! + data[i + 2]! < 96) dark++;
    return dark;
  });
}

declare global {
  interface Window {
    /** The page's fetches still waiting for an answer (counted by installClock's init script). */
    e2eOpenFetches: number;
  }
}

/**
 * Puts the page on Playwright's clock (call before it loads), and counts its fetches in flight, so that
 * letTimePass can wait for what the page asked the server.
 */
export async function installClock(page: Page) {
  await page.clock.install();
  await page.addInitScript(() => {
    window.e2eOpenFetches = 0;
    const fetch = window.fetch;
    window.fetch = (...args) => {
      window.e2eOpenFetches++;
      return fetch(...args).finally(() => window.e2eOpenFetches--);
    };
  });
}

/**
 * Lets `ms` of the page's time pass without waiting for it: the clock runs on in steps, and after each
 * the server's answers to what the page asked arrive before the next, so what a timer starts (a request
 * retried with a back-off, a logout after it) runs its own timers in the time that is left.
 */
export async function letTimePass(page: Page, ms: number, step = 250) {
  for (let passed = 0; passed < ms; passed += step) {
    await page.clock.runFor(step);
    await expect.poll(() => page.evaluate(() => window.e2eOpenFetches)).toBe(0);
  }
}

/** The first row of a list that holds a record: the loading skeleton's rows are not clickable. */
export function firstRecordRow(page: Page) {
  return page.locator('tbody tr:not([data-testid="skeleton-row"])').first();
}

/**
 * Opens the first record of a list from the keyboard (Enter on its row): a click lands on whatever
 * is in the middle of the row, which may be a link to a related record.
 */
export async function openFirstRecord(page: Page) {
  const row = firstRecordRow(page);
  await row.focus();
  await row.press('Enter');
}

/**
 * Puts `email`'s saved layouts of the lists at `routes` back to the defaults, as the user themself
 * (POST /api/auth/me, each config `list:<route>` set to null): the lists keep them per user on the server,
 * and specs share a server per worker, so a column order or filter one spec saved greets the next spec
 * that signs in as the same user. Signing in through the API ends that user's earlier session: call it
 * before the page signs in.
 */
export async function resetListLayouts(
  request: APIRequestContext,
  email: string,
  routes: string[] = ['tickets.index'],
) {
  const login = await request.post('/api/auth/login', { data: { username: email, password: DEMO_PASSWORD } });
  expect(login.ok(), await login.text()).toBe(true);
  const reset = await request.post('/api/auth/me', {
    headers: { authorization: `Bearer ${(await login.json()).access_token}` },
    data: { relationships: { configs: routes.map((route) => ({ name: `list:${route}`, value: null })) } },
  });
  expect(reset.ok(), await reset.text()).toBe(true);
}

/**
 * Forgets the ticket list's layout (filters, columns, sort) the back office stored on the server for each
 * of `emails` (user-configs 'list:tickets.index'): specs share a server per worker, and a filter one spec
 * typed would otherwise greet the next spec that opens the list as the same user.
 */
export async function forgetTicketListLayout(request: APIRequestContext, emails: string[]) {
  const login = await request.post('/api/auth/login', {
    data: { username: 'admin@example.com', password: DEMO_PASSWORD },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` };
  const where = (field: string, value: string | number, i: number) =>
    `builder[${i}][where][0]=${field}&builder[${i}][where][1]==&builder[${i}][where][2]=${encodeURIComponent(value)}`;
  const rows = async (path: string) => {
    const res = await request.get(path, { headers });
    expect(res.ok(), await res.text()).toBe(true);
    return ((await res.json()) as { data: { id: number }[] }).data;
  };
  for (const email of emails) {
    const operators = await rows(`/api/operators?${where('email', email, 0)}`);
    expect(operators).toHaveLength(1);
    const query = `${where('name', 'list:tickets.index', 0)}&${where('user_id', operators[0]!.id, 1)}`;
    for (const { id } of await rows(`/api/user-configs?${query}`)) {
      const res = await request.delete(`/api/user-configs/${id}`, { headers });
      expect(res.ok(), await res.text()).toBe(true);
    }
  }
}

/** A bearer token of `username`, signed in through the API (which ends that user's earlier session). */
export async function bearerOf(
  request: APIRequestContext,
  username: string,
  password = DEMO_PASSWORD,
): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { username, password } });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).access_token;
}

/**
 * The API as the signed-in page (or a request context of its own), with the bearer token `token`: the
 * answer's JSON, any failure a failed test.
 */
export async function api(
  client: Page | APIRequestContext,
  token: string,
  method: string,
  path: string,
  data?: object,
) {
  const request = 'request' in client ? client.request : client;
  const res = await request.fetch(`/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data ? { data } : {}),
  });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json();
}
