/**
 * Issue 14, item 17: tenant lists in the user's language. The apps send the language they show; the
 * English UI shows English status and priority names (German falls back to English, English to Dutch),
 * the Dutch UI the Dutch ones; the back office edits the three names of a list entry (Dutch required);
 * a status-changed message names the status in the reader's language. Records this spec changes are
 * its own (a priority and a ticket it creates through the API).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn } from './support.ts';

const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 900 };
type Lang = 'nl' | 'en';

/** Client names of the demo's ticket statuses, per language. */
const CLIENT_STATUSES: Record<Lang, string[]> = {
  nl: ['Ontvangen', 'In behandeling', 'Wacht op uw reactie', 'Reactie ontvangen', 'Ingepland', 'Opgelost'],
  en: ['Received', 'In progress', 'Waiting for your reply', 'Reply received', 'Scheduled', 'Resolved'],
};
/** Dutch client names that English does not share. */
const DUTCH_ONLY = ['Ontvangen', 'Wacht op uw reactie', 'Reactie ontvangen', 'Ingepland', 'Opgelost'];

async function startIn(page: Page, lang: Lang) {
  await page.addInitScript((locale) => {
    if (!sessionStorage.getItem('list-names-started')) {
      localStorage.clear();
      localStorage.setItem('locale', locale);
      sessionStorage.setItem('list-names-started', '1');
    }
  }, lang);
}

async function token(request: APIRequestContext, email: string): Promise<string> {
  const auth = await request.post('/api/auth/login', { data: { username: email, password: 'demo' } });
  expect(auth.ok()).toBe(true);
  return (await auth.json()).access_token;
}

async function api(request: APIRequestContext, email: string, method: string, path: string, data?: object) {
  const res = await request.fetch(`/api/${path}`, {
    method,
    headers: { authorization: `Bearer ${await token(request, email)}`, 'accept-language': 'nl' },
    ...(data && { data }),
  });
  expect(res.ok(), await res.text()).toBe(true);
  return res.json();
}

for (const lang of ['nl', 'en'] as const) {
  for (const size of [DESKTOP, PHONE]) {
    test(`portal ticket list shows the client status names in ${lang} at ${size.width} px`, async ({
      page,
    }) => {
      await page.setViewportSize(size);
      await startIn(page, lang);
      await signIn(page, 'client@example.com');
      await expect(page).toHaveURL(/\/app\/tickets$/);
      const main = page.locator('main');
      await expect(main).toContainText(new RegExp(CLIENT_STATUSES[lang].join('|')));
      if (lang === 'en') {
        for (const dutch of DUTCH_ONLY) await expect(main.getByText(dutch, { exact: true })).toHaveCount(0);
      }
      await expectAccessible(page, `portal tickets ${lang} ${size.width}`);
    });
  }
}

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
  await expectAccessible(page, 'ticket status form en');
});

for (const lang of ['nl', 'en'] as const) {
  test(`back office: a priority gets its English name, read in ${lang}`, async ({ page, request }) => {
    const dutch = `Spoed ${lang} ${Date.now()}`;
    const english = `Urgent ${lang} ${Date.now()}`;
    const created = await api(request, 'admin@example.com', 'POST', 'priorities', {
      label: dutch,
      order: 500,
    });
    // Other specs on this worker's server read the priority lists: the new one goes when the test ends.
    try {
      await page.setViewportSize(DESKTOP);
      await startIn(page, lang);
      await signIn(page, 'admin@example.com', 'backoffice', { to: `/priorities/${created.id}` });
      await expect(page.getByRole('heading', { level: 1 })).toContainText(dutch);
      await page.getByRole('button', { name: lang === 'nl' ? 'Bewerken' : 'Edit', exact: true }).click();
      const base = page.getByLabel(lang === 'nl' ? 'Naam (Nederlands) *' : 'Name (Dutch) *');
      await expect(base).toHaveValue(dutch);
      await page
        .getByLabel(lang === 'nl' ? 'Naam (Engels)' : 'Name (English)', { exact: true })
        .fill(english);
      await page.getByRole('button', { name: lang === 'nl' ? 'Opslaan' : 'Save', exact: true }).click();
      // English reads the English name; Dutch keeps the Dutch one.
      await expect(page.getByRole('heading', { level: 1 })).toContainText(lang === 'en' ? english : dutch);
      const stored = await api(request, 'admin@example.com', 'GET', `priorities/${created.id}`);
      expect(stored).toMatchObject({ label: dutch, label_en: english, label_de: null });
    } finally {
      await api(request, 'admin@example.com', 'DELETE', `priorities/${created.id}`);
    }
  });
}

for (const lang of ['nl', 'en'] as const) {
  test(`portal thread names a status change in ${lang}`, async ({ page, request }) => {
    const statuses = (await api(request, 'admin@example.com', 'GET', 'ticket-statuses')).data as {
      id: number;
      name: string;
    }[];
    const scheduled = statuses.find((s) => s.name === 'Ingepland')!;
    const company = (await api(request, 'client@example.com', 'GET', 'auth/me')).user.companies[0];
    const ticket = await api(request, 'admin@example.com', 'POST', 'tickets', {
      description: `Naam van de status ${lang} ${Date.now()}`,
      company_id: company.id,
      priority_id: (await api(request, 'client@example.com', 'GET', 'priorities')).data[0].id,
    });
    await api(request, 'admin@example.com', 'PUT', `tickets/${ticket.id}`, { status_id: scheduled.id });
    await page.setViewportSize(PHONE);
    await startIn(page, lang);
    await signIn(page, 'client@example.com', 'portal', { to: `/app/tickets/${ticket.id}` });
    const text =
      lang === 'en'
        ? 'Status changed to Scheduled by Sanne Bakker'
        : 'Status gewijzigd naar Ingepland door Sanne Bakker';
    await expect(page.getByText(text)).toBeVisible();
    await expectAccessible(page, `portal thread ${lang}`);
  });
}
