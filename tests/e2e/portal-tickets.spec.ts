/**
 * The portal's tickets (issue 4): the create button on the list, the new-ticket form with the fields the
 * tenant requires for the portal (portal_ticket_fields: description and priority) and the required custom
 * field Impact with its red asterisk; a submit with missing fields says '{field label} is required' per
 * field and sends nothing; a complete one creates the client's ticket with its custom values and opens it.
 * Dutch on a desktop, English at 375 px. axe-core on the form with its errors and on the new ticket;
 * the empty form and a demo ticket's detail are plain screens the translation sweep scans.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  expectAccessible,
  firstRecordRow,
  signIn,
  openFirstRecord,
  resetListLayouts,
  startWithEmptyStorage,
} from './support.ts';

const CLIENT = 'client@example.com';

/** Counts POST /api/tickets calls the page makes. */
function countTicketPosts(page: Page): () => number {
  let posts = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/tickets') posts += 1;
  });
  return () => posts;
}

test.describe('portal tickets', () => {
  test.beforeEach(async ({ page }) => {
    // A column order another spec on this worker's server saved would change what the first cell is.
    await resetListLayouts(page.request, CLIENT);
    await startWithEmptyStorage(page);
  });

  test('a ticket with missing required fields is refused per field; a complete one is created', async ({
    page,
  }) => {
    const posts = countTicketPosts(page);
    await signIn(page, CLIENT);
    await expect(page).toHaveURL(/\/app\/tickets$/);
    await page.getByRole('link', { name: 'Aanmaken' }).click();
    await expect(page).toHaveURL(/\/app\/tickets\/create$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Nieuw ticket' })).toBeVisible();
    await expect(page).toHaveTitle(/^Nieuw ticket - Acme IT Portal$/);
    // Required fields carry a red asterisk; the custom field Impact is required, Kostenplaats is not.
    const impactLabel = page.locator('label').filter({ hasText: 'Impact' });
    await expect(impactLabel).toContainText('*');
    const asteriskColour = await impactLabel
      .locator('[aria-hidden="true"]')
      .evaluate((el) => getComputedStyle(el).color);
    expect(asteriskColour).toBe('rgb(183, 28, 28)');
    await expect(page.locator('label').filter({ hasText: 'Kostenplaats' })).not.toContainText('*');

    await page.getByRole('button', { name: 'Opslaan' }).click();
    for (const text of ['Omschrijving is verplicht', 'Prioriteit is verplicht', 'Impact is verplicht']) {
      await expect(page.getByText(text, { exact: true })).toBeVisible();
    }
    await expect(page).toHaveURL(/\/app\/tickets\/create$/);
    expect(posts()).toBe(0);
    await expectAccessible(page, 'new ticket with errors');

    const description = `Beamer in vergaderzaal 3 doet het niet (${Date.now()})`;
    await page.getByLabel('Omschrijving').fill(description);
    // A search selector starts after 2 typed characters (SPEC 5).
    const priority = page.getByRole('combobox', { name: 'Prioriteit' });
    await priority.click();
    await priority.pressSequentially('Hoo', { delay: 50 });
    await page.getByRole('option', { name: 'Hoog' }).click();
    await page.getByRole('combobox', { name: 'Impact' }).click();
    await page.getByRole('option', { name: 'Afdeling' }).click();
    await page.getByLabel('Kostenplaats').fill('KP-42');
    await expect(page.getByText('Omschrijving is verplicht', { exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Opslaan' }).click();

    await expect(page.getByText('Ticket aangemaakt')).toBeVisible();
    await expect(page).toHaveURL(/\/app\/tickets\/\d+$/);
    expect(posts()).toBe(1);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await expect(page.getByRole('heading', { level: 1 })).toContainText('- Ticket');
    await expect(page.getByText(description)).toBeVisible();
    await expect(page.getByText('Hoog', { exact: true })).toBeVisible();

    // What the server stored, read as the client: its own ticket, in the default status, with the values.
    const bearer = await page.evaluate(() => localStorage.getItem('APP_PORTAL_TOKEN'));
    const res = await page.request.get(`/api/tickets/${id}?with[0]=customValues&with[1]=client`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    expect(res.ok()).toBe(true);
    const ticket = await res.json();
    expect(ticket.description).toBe(description);
    expect(ticket.client.full_name).toBe('Pieter Jansen');
    expect(ticket.customValues.map((v: { value: string }) => v.value).sort()).toEqual([
      'KP-42',
      'department',
    ]);
    await expectAccessible(page, 'new ticket opened');
  });

  test('in English at 375 px the form names each missing field', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await signIn(page, CLIENT, 'portal', { locale: 'en' });
    await expect(page).toHaveURL(/\/app\/tickets$/);
    // Below 768 px the create button floats at the bottom right.
    await page.getByRole('link', { name: 'Create' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New ticket' })).toBeVisible();
    await page.getByLabel('Description').fill('Laptop will not start');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Priority is required', { exact: true })).toBeVisible();
    await expect(page.getByText('Impact is required', { exact: true })).toBeVisible();
    await expect(page.getByText('Description is required', { exact: true })).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // The first missing field takes the focus and a short select opens its list: closed for the scan
    // of the form itself.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('listbox')).toHaveCount(0);
    await expectAccessible(page, 'new ticket at 375 px in English');
  });

  test('a ticket opens with its fields', async ({ page }) => {
    await signIn(page, CLIENT);
    await expect(page).toHaveURL(/\/app\/tickets$/);
    // The reference is the first column; the row opens from the keyboard (its cells hold links).
    const row = firstRecordRow(page);
    const reference = (await row.getByRole('cell').first().textContent())!.trim();
    await openFirstRecord(page);
    await expect(page).toHaveURL(/\/app\/tickets\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: `${reference} - Ticket` })).toBeVisible();
    for (const label of ['Referentie', 'Omschrijving', 'Prioriteit', 'Status', 'Bedrijf', 'Aangemaakt op']) {
      await expect(page.getByText(label, { exact: true }).first()).toBeVisible();
    }
    await expect(page.getByText('Jansen BV').first()).toBeVisible();
  });
});
