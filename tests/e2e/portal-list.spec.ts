/**
 * The portal as a client uses it (issue 3): sign in, see only their own company's tickets with the
 * right counter, sort, filter, save and apply a table view, change columns and page size and find them
 * again after a reload, switch language, and the 375 px cards. No axe here: the login page, the list
 * (table and cards) and a ticket's detail are the demo's plain screens, which the translation sweep
 * scans at both widths as client@example.com.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { resetListLayouts, signIn, startWithEmptyStorage } from './support.ts';

async function apiTotal(page: Page, email: string, query = ''): Promise<number> {
  const res = await page.request.post('/api/auth/login', { data: { username: email, password: 'demo' } });
  const { access_token } = await res.json();
  const list = await page.request.get(`/api/tickets?${query}`, {
    headers: { authorization: `Bearer ${access_token}` },
  });
  return (await list.json()).total;
}

const table = (page: Page) => page.getByRole('table');
const bodyRows = (page: Page) => table(page).locator('tbody tr');
const counter = (page: Page) => page.getByRole('status').filter({ hasText: / van \d+$/ });

test.describe('portal tickets list', () => {
  test.beforeEach(async ({ page }) => {
    // Each test starts from the default layout: the list keeps it per user on the server too.
    await resetListLayouts(page.request, 'client@example.com');
    await resetListLayouts(page.request, 'other@example.com');
    await startWithEmptyStorage(page);
  });

  test('client@example.com sees only Jansen BV tickets, with the counter and the page title', async ({
    page,
  }) => {
    const total = await apiTotal(page, 'client@example.com');
    await page.goto('/app/login');
    await expect(page.getByRole('button', { name: 'Inloggen' })).toBeVisible();
    await signIn(page, 'client@example.com');
    await expect(page).toHaveURL(/\/app\/tickets$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Tickets' })).toBeVisible();
    await expect(counter(page)).toHaveText(`1-15 van ${total}`);
    await expect(page).toHaveTitle('Tickets - Acme IT Portal');
    await expect(bodyRows(page)).toHaveCount(15);
    const companies = await table(page)
      .locator('tbody tr td')
      .filter({ hasText: /BV|Installaties/ })
      .allTextContents();
    expect(companies.length).toBeGreaterThan(0);
    expect(companies.every((c) => c.includes('Jansen BV'))).toBe(true);
    for (const item of ['Tickets', 'Offertes', 'Abonnementen', 'Assets', 'Contracten', 'Facturen']) {
      await expect(page.getByRole('menuitem', { name: item })).toBeVisible();
    }
  });

  // The reference is the list's first column (the ticket list's default columns start with it).
  test('sort by a header toggle and filter in a header cell', async ({ page }) => {
    await signIn(page, 'client@example.com');
    await expect(bodyRows(page)).toHaveCount(15);
    const header = page.getByRole('columnheader', { name: /Referentie/ });
    // The header says the new order at once; the rows follow when the list has answered. The order is
    // read once the table is no longer busy, and the filter is typed only then.
    const inOrder = async (direction: 'ascending' | 'descending') => {
      await expect(table(page)).toHaveAttribute('aria-busy', 'false');
      const refs = await bodyRows(page).locator('td:nth-child(1)').allTextContents();
      const sorted = [...refs].sort();
      return (
        refs.length === 15 &&
        refs.join('|') === (direction === 'ascending' ? sorted : sorted.reverse()).join('|')
      );
    };
    await header.getByRole('button', { name: 'Referentie' }).click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(() => inOrder('ascending')).toBe(true);
    await header.getByRole('button', { name: 'Referentie' }).click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(() => inOrder('descending')).toBe(true);

    const first = (await bodyRows(page).first().locator('td:nth-child(1)').textContent())!.trim();
    await page.getByLabel('Filter op Referentie').fill(first);
    await expect(counter(page)).toHaveText('1-1 van 1');
    await expect(bodyRows(page)).toHaveCount(1);
  });

  test('save a table view, see its count in the menu, apply it', async ({ page }) => {
    await signIn(page, 'client@example.com');
    await expect(bodyRows(page)).toHaveCount(15);
    const first = (await bodyRows(page).first().locator('td:nth-child(1)').textContent())!.trim();
    await page.getByLabel('Filter op Referentie').fill(first.slice(0, -1));
    await expect(counter(page)).not.toHaveText(/1-15 van/);
    const filtered = (await counter(page).textContent())!.split(' van ')[1]!;
    await page.getByRole('button', { name: 'Opslaan als tabelweergave' }).click();
    await page.getByRole('dialog').getByLabel(/Naam/).fill('Mijn selectie');
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /Opslaan/ })
      .click();
    await page.getByRole('button', { name: 'Filters wissen' }).click();
    await expect(counter(page)).toHaveText(/^1-15 van /);
    await page.getByRole('button', { name: 'Tabelweergaven' }).click();
    const item = page.getByRole('menuitem', { name: /Mijn selectie/ });
    await expect(item).toContainText(filtered);
    await item.click();
    await expect(counter(page)).toHaveText(`1-${filtered} van ${filtered}`);
  });

  test('switch to English and back; the choice survives a reload', async ({ page }) => {
    await signIn(page, 'client@example.com');
    await expect(page.getByRole('menuitem', { name: 'Offertes' })).toBeVisible();
    await page.getByRole('button', { name: 'Nederlands' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect(page.getByRole('menuitem', { name: 'Quotes' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('en');
    await page.reload();
    await expect(page.getByRole('menuitem', { name: 'Quotes' })).toBeVisible();
    await expect(counter(page).or(page.getByRole('status').filter({ hasText: / of \d+$/ }))).toBeVisible();
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('menuitem', { name: 'Nederlands' }).click();
    await expect(page.getByRole('menuitem', { name: 'Offertes' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('nl');
  });

  test('at 375 px the list is cards', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn(page, 'client@example.com');
    await expect(page.getByRole('heading', { level: 1, name: 'Tickets' })).toBeVisible();
    await expect(page.getByRole('table')).toHaveCount(0);
    const cards = page.getByRole('heading', { level: 2, name: /^T-\d{4}-\d{5}$/ });
    await expect(cards.first()).toBeVisible();
    expect(await cards.count()).toBeGreaterThan(0);
    const reference = (await cards.first().textContent())!.trim();
    await cards.first().getByRole('button').click();
    await expect(page).toHaveURL(/\/app\/tickets\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: `${reference} - Ticket` })).toBeVisible();
  });

  test('other@example.com sees none of Jansen BV', async ({ page }) => {
    const total = await apiTotal(page, 'other@example.com');
    await signIn(page, 'other@example.com');
    await expect(counter(page)).toHaveText(`1-${Math.min(15, total)} van ${total}`);
    await expect(table(page)).not.toContainText('Jansen BV');
    await expect(table(page)).toContainText('De Vries Installaties');
  });
  test('hide and reorder a column, 25 rows; still so after a reload', async ({ page }) => {
    await signIn(page, 'client@example.com');
    await expect(bodyRows(page)).toHaveCount(15);
    await page.getByRole('button', { name: 'Kolommen en paginagrootte' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Prioriteit verbergen' }).click();
    const handle = dialog
      .getByRole('button', { name: /Omschrijving/ })
      .filter({ hasText: '' })
      .first();
    await handle.focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Space');
    await dialog.getByLabel('Rijen per pagina').selectOption('25');
    await dialog
      .getByRole('button', { name: /Opslaan|Sluiten/ })
      .last()
      .click();
    await expect(bodyRows(page)).toHaveCount(25);
    await expect(page.getByRole('columnheader', { name: /Prioriteit/ })).toHaveCount(0);
    const before = await page.getByRole('columnheader').allTextContents();
    await page.reload();
    await expect(bodyRows(page)).toHaveCount(25);
    expect(await page.getByRole('columnheader').allTextContents()).toEqual(before);
    await expect(page.getByRole('columnheader', { name: /Prioriteit/ })).toHaveCount(0);
  });
});
