/**
 * Issue 14, item 17: tenant lists in the user's language. The apps send the language they show; the
 * English UI shows English status and priority names (German falls back to English, English to Dutch),
 * the Dutch UI the Dutch ones; the back office edits the three names of a list entry (Dutch required);
 * a status-changed message names the status in the reader's language. Records this spec changes are
 * its own (a priority and a ticket it creates through the API).
 *
 * The language of the tenant's own data is this file's subject, so it is one of the few browser tests
 * that runs in more than one language: a test reads the same records in Dutch and in English, switching
 * the app's language (its stored choice) and reloading, under one sign-in. The catalogue's words on
 * these screens (the forms' labels, the buttons) are asserted in all three languages at their keys in
 * tests/browser/journey-wording-records.test.ts. axe: the portal's ticket list and a status's edit form
 * are plain demo screens the translation sweep scans at both widths; the status change in the portal's
 * thread (the test's own ticket) is scanned here, once.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn, type Lang } from './support.ts';

const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 900 };
/** Client names of the demo's ticket statuses, per language. */
const CLIENT_STATUSES: Record<Exclude<Lang, 'de'>, string[]> = {
  nl: ['Ontvangen', 'In behandeling', 'Wacht op uw reactie', 'Reactie ontvangen', 'Ingepland', 'Opgelost'],
  en: ['Received', 'In progress', 'Waiting for your reply', 'Reply received', 'Scheduled', 'Resolved'],
};
/** Dutch client names that English does not share. */
const DUTCH_ONLY = ['Ontvangen', 'Wacht op uw reactie', 'Reactie ontvangen', 'Ingepland', 'Opgelost'];

/**
 * The test starts in `lang`, with nothing else stored (the first page load only: a reload keeps what
 * the test set, as `reloadIn` does).
 */
async function startIn(page: Page, lang: Lang) {
  await page.addInitScript((locale) => {
    if (!sessionStorage.getItem('list-names-started')) {
      localStorage.clear();
      localStorage.setItem('locale', locale);
      sessionStorage.setItem('list-names-started', '1');
    }
  }, lang);
}

/** The app's language switched to `lang` (its stored choice, as its language menu stores it), reloaded. */
async function reloadIn(page: Page, lang: Lang) {
  await page.evaluate((locale) => localStorage.setItem('locale', locale), lang);
  await page.reload();
}

async function token(request: APIRequestContext, email: string): Promise<string> {
  const auth = await request.post('/api/auth/login', { data: { username: email, password: 'demo' } });
  expect(auth.ok()).toBe(true);
  return (await auth.json()).access_token;
}

/**
 * The API in Dutch with a bearer token (an operator has one session at a time: a test signs in once and
 * passes the page's token on after the page signed in).
 */
async function api(request: APIRequestContext, bearer: string, method: string, path: string, data?: object) {
  const res = await request.fetch(`/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, 'accept-language': 'nl' },
    ...(data && { data }),
  });
  expect(res.ok(), await res.text()).toBe(true);
  return res.json();
}

test('portal ticket list shows the client status names in nl, then in en, at 1280 and at 375 px', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await startIn(page, 'nl');
  await signIn(page, 'client@example.com');
  const main = page.locator('main');
  for (const lang of ['nl', 'en'] as const) {
    if (lang !== 'nl') await reloadIn(page, lang);
    for (const size of [DESKTOP, PHONE]) {
      // The table or the cards: the layout is chosen at load, as on a phone.
      if (size !== DESKTOP) {
        await page.setViewportSize(size);
        await page.reload();
      }
      await expect(page).toHaveURL(/\/app\/tickets$/);
      await expect(main).toContainText(new RegExp(CLIENT_STATUSES[lang].join('|')));
      if (lang === 'en') {
        for (const dutch of DUTCH_ONLY) await expect(main.getByText(dutch, { exact: true })).toHaveCount(0);
      }
    }
    await page.setViewportSize(DESKTOP);
  }
});

test('back office: the statuses list in English, the form shows the three names', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await startIn(page, 'en');
  await signIn(page, 'admin@example.com', 'backoffice', { to: '/ticket-statuses' });
  const main = page.locator('main');
  await expect(main.getByText('Waiting for client', { exact: true }).first()).toBeVisible();
  await expect(main.getByText('Wacht op klant', { exact: true })).toHaveCount(0);
  await main.getByText('Waiting for client', { exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Waiting for client');
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  // The form edits what is stored: the Dutch name (required) and its translations.
  await expect(page.getByLabel('Name (Dutch) *')).toHaveValue('Wacht op klant');
  await expect(page.getByLabel('Name (English)', { exact: true })).toHaveValue('Waiting for client');
  await expect(page.getByLabel('Name (German)', { exact: true })).toHaveValue('Wartet auf Kunde');
  await expect(page.getByLabel('Name for clients (Dutch) *')).toHaveValue('Wacht op uw reactie');
});

test('back office: a priority gets its English name, read in en, then in nl', async ({ page, request }) => {
  const stamp = Date.now();
  const dutch = `Spoed ${stamp}`;
  const english = `Urgent ${stamp}`;
  const created = await api(request, await token(request, 'admin@example.com'), 'POST', 'priorities', {
    label: dutch,
    order: 500,
  });
  let admin: string | undefined;
  // Other specs on this worker's server read the priority lists: the new one goes when the test ends.
  try {
    await page.setViewportSize(DESKTOP);
    await startIn(page, 'en');
    admin = await signIn(page, 'admin@example.com', 'backoffice', { to: `/priorities/${created.id}` });
    await expect(page.getByRole('heading', { level: 1 })).toContainText(dutch);
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(page.getByLabel('Name (Dutch) *')).toHaveValue(dutch);
    await page.getByLabel('Name (English)', { exact: true }).fill(english);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // English reads the English name; Dutch keeps the Dutch one.
    await expect(page.getByRole('heading', { level: 1 })).toContainText(english);
    const stored = await api(request, admin, 'GET', `priorities/${created.id}`);
    expect(stored).toMatchObject({ label: dutch, label_en: english, label_de: null });
    await reloadIn(page, 'nl');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(dutch);
    await expect(page.getByRole('heading', { level: 1 })).not.toContainText(english);
  } finally {
    // The page's session if it signed in (a login of the API's own would have ended it), else a new one.
    await api(
      request,
      admin ?? (await token(request, 'admin@example.com')),
      'DELETE',
      `priorities/${created.id}`,
    );
  }
});

test('portal thread names a status change in nl, then in en', async ({ page, request }) => {
  const admin = await token(request, 'admin@example.com');
  const client = await token(request, 'client@example.com');
  const statuses = (await api(request, admin, 'GET', 'ticket-statuses')).data as {
    id: number;
    name: string;
  }[];
  const scheduled = statuses.find((s) => s.name === 'Ingepland')!;
  const company = (await api(request, client, 'GET', 'auth/me')).user.companies[0];
  const ticket = await api(request, admin, 'POST', 'tickets', {
    description: `Naam van de status ${Date.now()}`,
    company_id: company.id,
    priority_id: (await api(request, client, 'GET', 'priorities')).data[0].id,
  });
  await api(request, admin, 'PUT', `tickets/${ticket.id}`, { status_id: scheduled.id });
  await page.setViewportSize(PHONE);
  await startIn(page, 'nl');
  await signIn(page, 'client@example.com', 'portal', { to: `/app/tickets/${ticket.id}` });
  await expect(page.getByText('Status gewijzigd naar Ingepland door Sanne Bakker')).toBeVisible();
  await reloadIn(page, 'en');
  await expect(page.getByText('Status changed to Scheduled by Sanne Bakker')).toBeVisible();
  // The thread of the test's own ticket, with its status change: a state the sweep does not reach.
  await expectAccessible(page, 'portal thread with a status change (en)');
});
