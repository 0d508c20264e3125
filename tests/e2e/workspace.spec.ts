/**
 * The operator's workspace (issue 18): the global search in the back office's app bar (item 2) and the
 * keyboard shortcuts (item 8), walked as an operator works: by keyboard, in Dutch and English, on a
 * desktop and at 375 px, with axe-core on what they open.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  api,
  expectAccessible,
  firstRecordRow,
  forgetTicketListLayout,
  signIn,
  storeSession,
} from './support.ts';

/** A demo ticket (server/db/seed/demo) and the word that finds it. */
const DEMO_TICKET = 'Printer op de eerste verdieping drukt niet af';

const searchBox = (page: Page) => page.getByRole('combobox', { name: /^(Zoek tickets|Search tickets)/ });

test('an operator searches from the app bar with / and opens a match by keyboard and by click', async ({
  page,
}) => {
  await signIn(page, 'admin@example.com', 'backoffice');
  await expect(firstRecordRow(page)).toBeVisible();
  await page.keyboard.press('/');
  const box = searchBox(page);
  await expect(box).toBeFocused();
  await expect(box).toHaveAttribute('aria-expanded', 'false');

  await page.keyboard.type('Pr');
  await expect(page.getByText('Typ minstens 3 tekens.')).toBeVisible();
  await page.keyboard.type('inter op de eerste');
  const listbox = page.getByRole('listbox', { name: 'Zoekresultaten' });
  const tickets = listbox.getByRole('group', { name: 'Tickets' });
  const match = tickets.getByRole('option').filter({ hasText: DEMO_TICKET }).first();
  await expect(match).toBeVisible();
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await expectAccessible(page, 'global search with matches');

  // The arrows move the active option (aria-activedescendant), Enter opens it.
  await page.keyboard.press('ArrowDown');
  await expect(box).toHaveAttribute('aria-activedescendant', (await match.getAttribute('id'))!);
  await expect(match).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/tickets\/\d+$/);
  await expect(page.getByText(DEMO_TICKET).first()).toBeVisible();
  await expect(box).toHaveValue('');

  // A company by name, opened with the mouse.
  await box.click();
  await box.fill('Jansen');
  const company = listbox
    .getByRole('group', { name: 'Bedrijven' })
    .getByRole('option', { name: /Jansen BV/ });
  await company.click();
  await expect(page).toHaveURL(/\/companies\/\d+$/);

  // Nothing found says so.
  await box.fill('qqqzzzxxx');
  await expect(page.getByText('Niets gevonden voor “qqqzzzxxx”.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(box).toHaveAttribute('aria-expanded', 'false');
});

test('at 375 px the search fits the screen; a first-line operator finds no invoices (English)', async ({
  page,
}) => {
  const adminToken = await signIn(page, 'admin@example.com', 'backoffice', { locale: 'en' });
  // An invoice code of the demo data, as the API finds it for someone who may list invoices.
  const res = await page.request.get('/api/search?q=2026', {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(res.ok()).toBe(true);
  const invoices = ((await res.json()).data as { resource: string; records: { label: string }[] }[]).find(
    (g) => g.resource === 'invoices',
  );
  expect(invoices?.records.length).toBeGreaterThan(0);
  const code = invoices!.records[0]!.label;

  await page.context().clearCookies();
  await page.setViewportSize({ width: 375, height: 760 });
  await signIn(page, 'operator@example.com', 'backoffice', { locale: 'en' });
  const box = searchBox(page);
  await box.click();
  await box.fill(code);
  await expect(page.getByText(`Nothing found for “${code}”.`)).toBeVisible();
  await box.fill('Printer');
  const listbox = page.getByRole('listbox', { name: 'Search results' });
  await expect(listbox.getByRole('group', { name: 'Tickets' }).getByRole('option').first()).toBeVisible();
  await expect(listbox.getByRole('group', { name: 'Invoices' })).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectAccessible(page, 'global search at 375 px');
});

test('j and k move through the list, Enter opens; on a ticket n, r, c and ? work, never while typing', async ({
  page,
}) => {
  // A ticket of its own, open and with a client (to reply to): specs before this one on the same server
  // close demo tickets, and the list shows the ticket changed last first.
  await forgetTicketListLayout(page.request, ['admin@example.com']);
  const token = await storeSession(page, 'admin@example.com');
  // Asked for a ticket with a client: the first page of all tickets may hold only tickets that specs
  // before this one on the same server made without a client.
  const [withClient] = (await api(page, token, 'GET', '/tickets?builder[0][whereNotNull]=client_id'))
    .data as {
    company_id: number;
    client_id: number;
  }[];
  expect(withClient, 'a demo ticket with a client').toBeDefined();
  const mine = await api(page, token, 'POST', '/tickets', {
    description: `Sneltoetsen ${Date.now()}`,
    company_id: withClient!.company_id,
    client_id: withClient!.client_id,
  });
  await page.goto('/tickets');
  const rows = page.locator('tbody[data-shortcut-rows] > tr[tabindex]');
  await expect(rows.nth(2)).toBeVisible();
  await page.keyboard.press('j');
  await expect(rows.nth(0)).toBeFocused();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(rows.nth(2)).toBeFocused();
  await page.keyboard.press('k');
  await expect(rows.nth(1)).toBeFocused();
  // Typed in the search field, j is a letter of the text.
  await searchBox(page).click();
  await page.keyboard.type('jj');
  await expect(searchBox(page)).toHaveValue('jj');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await rows.filter({ hasText: mine.description }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(`/tickets/${mine.id}`);

  // ? and the keyboard button open the same list of shortcuts.
  // The Close button, whose twin c is.
  const close = page.locator('button[aria-keyshortcuts="c"]');
  await expect(close).toHaveText('Sluiten');
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Sneltoetsen' });
  await expect(dialog.getByRole('table', { name: 'Op een ticket' })).toBeVisible();
  await expect(dialog.getByRole('row', { name: 'c Het ticket sluiten' })).toBeVisible();
  await expectAccessible(page, 'shortcuts dialog');
  await dialog.getByRole('button', { name: 'Sluiten' }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('button', { name: 'Sneltoetsen' }).click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // n: the editor has the focus and the internal note is the highlighted button; typed there, c is a letter.
  await page.keyboard.press('n');
  const editor = page.getByTestId('message-form').locator('[contenteditable="true"]');
  await expect(editor).toBeFocused();
  const note = page.getByRole('button', { name: 'Opslaan als interne notitie' });
  await expect(note).toHaveClass(/MuiButton-contained/);
  await page.keyboard.type('c');
  await expect(editor).toHaveText('c');
  await expect(close).toBeVisible();
  // r: the reply is the highlighted one.
  await page.locator('h1').click();
  await page.keyboard.press('r');
  await expect(editor).toBeFocused();
  await expect(page.getByRole('button', { name: 'Versturen naar klant' })).toHaveClass(/MuiButton-contained/);
  await expect(note).toHaveClass(/MuiButton-outlined/);

  // c outside a field closes the ticket, as the button does.
  await page.locator('h1').click();
  await page.keyboard.press('c');
  await expect(page.getByText('Ticket gesloten.')).toBeVisible();
  await expect(close).toHaveCount(0);

  // A phone's bar has no room for the keyboard button (nor the phone a keyboard); ? still opens the list.
  await page.setViewportSize({ width: 375, height: 760 });
  await page.reload();
  await expect(page.locator('h1')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sneltoetsen' })).toBeHidden();
  await page.keyboard.press('?');
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'shortcuts dialog at 375 px');
});

test('New ticket from template opens the ticket form filled with the template, and saves a ticket', async ({
  page,
}) => {
  await signIn(page, 'operator@example.com', 'backoffice', { to: '/ticket-templates' });
  await firstRecordRow(page).click();
  await expect(page).toHaveURL(/\/tickets\/templates\/\d+$/);
  const heading = (await page.locator('h1').innerText()).trim();
  const description = heading.replace(/ - Ticketsjabloon$/, '');
  expect(description).not.toBe(heading);

  await page.getByRole('button', { name: 'Nieuw ticket van sjabloon' }).click();
  await expect(page).toHaveURL(/\/tickets\/create$/);
  await expect(page.getByLabel('Omschrijving')).toHaveValue(description);
  await expectAccessible(page, 'ticket form from a template');
  // The demo tenant's required custom field is the form's own, not the template's.
  await page.getByRole('combobox', { name: 'Impact (verplicht)' }).click();
  await page.getByRole('option').filter({ hasText: /\S/ }).first().click();
  await page.getByRole('button', { name: 'Opslaan', exact: true }).click();
  await expect(page).toHaveURL(/\/tickets\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^T-\d{4}-\d{5} - Ticket$/);
  await expect(page.getByText(description).first()).toBeVisible();
});
