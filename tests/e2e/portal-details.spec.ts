/**
 * The portal's detail screens (issue 4) as client@example.com: accept a sent quote with a signature drawn
 * with the mouse, the empty-signature alert, the quote PDF, the prepaid card upgrade, the asset and
 * subscription details. Records are picked by what the API says (other test files share the server and
 * may change them). axe-core scans the quotes in the states a client acts on and the contracts (the
 * translation sweep opens only the first of a list); the plain asset, subscription and invoice details
 * and the invoice list are the demo's screens the sweep scans at both widths.
 */
import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn, sign, startWithEmptyStorage } from './support.ts';

const CLIENT = 'client@example.com';

async function token(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { username: CLIENT, password: 'demo' } });
  expect(res.ok()).toBe(true);
  return (await res.json()).access_token;
}

/** All records of a portal list (at most 100), as the client sees them. */
async function records(request: APIRequestContext, resource: string): Promise<any[]> {
  const bearer = await token(request);
  const res = await request.get(`/api/${resource}?builder[0][paginate]=100`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()).data;
}

async function sentQuotes(request: APIRequestContext) {
  return (await records(request, 'quotes')).filter((q) => Number(q.status_id) === 2);
}

test.describe('portal detail screens', () => {
  test.beforeEach(async ({ page }) => {
    await startWithEmptyStorage(page);
  });

  test('accept a sent quote with a drawn signature, from the quotes list', async ({ page }) => {
    const sent = await sentQuotes(page.request);
    expect(sent.length === 0, 'no sent quote left for this client').toBe(false);
    const quote = sent[0];
    await signIn(page, CLIENT);
    await expect(page).toHaveURL(/\/app\/tickets$/);
    await page.getByRole('menuitem', { name: 'Offertes' }).click();
    await page.getByRole('row').filter({ hasText: quote.name }).first().click();
    await expect(page).toHaveURL(new RegExp(`/app/quotes/${quote.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: `${quote.name} - Offerte` })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Offerte accepteren' })).toBeVisible();
    // The name is prefilled with the client's full name.
    await expect(page.getByLabel('Naam')).toHaveValue('Pieter Jansen');
    await expect(page.getByText('Door je gegevens in te vullen ga je akkoord')).toBeVisible();
    await expectAccessible(page, 'sent quote');

    await sign(page);
    await page.getByLabel('Opmerking').fill('Graag volgende week leveren.');
    await page.getByRole('button', { name: 'Offerte accepteren' }).click();
    // The toast and, after the reload of the detail, the accepted state.
    await expect(
      page.locator('#main-content').getByRole('status').filter({ hasText: 'De offerte is geaccepteerd.' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Offerte accepteren' })).toHaveCount(0);

    const after = (await records(page.request, 'quotes')).find((q) => q.id === quote.id);
    expect(after.status_id).toBe(3);
    expect(after.signed_name).toBe('Pieter Jansen');
    await expectAccessible(page, 'accepted quote');
  });

  test('an empty signature pad gives the alert and accepts nothing', async ({ page }) => {
    const sent = await sentQuotes(page.request);
    expect(sent.length === 0, 'no sent quote left for this client').toBe(false);
    const quote = sent[sent.length - 1];
    await signIn(page, CLIENT, 'portal', { to: `/app/quotes/${quote.id}` });
    await expect(page.getByRole('heading', { level: 2, name: 'Offerte accepteren' })).toBeVisible();
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Offerte accepteren' }).click();
    await expect.poll(() => alerts).toEqual(['alert: Er is geen handtekening gezet.']);
    const after = (await records(page.request, 'quotes')).find((q) => q.id === quote.id);
    expect(after.status_id).toBe(2);

    // The clear button empties a drawn pad again.
    await sign(page);
    await page.getByRole('button', { name: 'Handtekening wissen' }).click();
    await page.getByRole('button', { name: 'Offerte accepteren' }).click();
    await expect.poll(() => alerts).toHaveLength(2);
    await expect(page.getByRole('heading', { level: 2, name: 'Offerte accepteren' })).toBeVisible();
    await expectAccessible(page, 'sent quote after the alert');
  });

  test('download the quote PDF', async ({ page }) => {
    const quote = (await records(page.request, 'quotes'))[0];
    await signIn(page, CLIENT, 'portal', { to: `/app/quotes/${quote.id}` });
    await expect(page.getByRole('heading', { level: 1 })).toContainText(quote.name);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'PDF downloaden' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${quote.name}.pdf`);
    const bytes = readFileSync((await file.path())!);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
  });

  test('an accepted or rejected quote says so (English)', async ({ page }) => {
    const done = (await records(page.request, 'quotes')).filter((q) => [3, 4].includes(Number(q.status_id)));
    expect(done.length === 0, 'no accepted or rejected quote').toBe(false);
    for (const [i, quote] of done.entries()) {
      if (i === 0) await signIn(page, CLIENT, 'portal', { to: `/app/quotes/${quote.id}`, locale: 'en' });
      else await page.goto(`/app/quotes/${quote.id}`);
      await expect(page.getByRole('heading', { level: 1, name: `${quote.name} - Quote` })).toBeVisible();
      const text =
        Number(quote.status_id) === 3 ? 'The quote has been accepted.' : 'The quote has been rejected.';
      await expect(page.locator('#main-content').getByRole('status').filter({ hasText: text })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Accept quote' })).toHaveCount(0);
    }
    await expectAccessible(page, 'quote in English');
  });

  test('upgrade the prepaid card: the remaining hours go up without a reload', async ({ page }) => {
    const contract = (await records(page.request, 'contracts')).find((c) => c.period === 'none');
    expect(!contract, 'no prepaid contract').toBe(false);
    const cards = await records(page.request, 'prepaid-cards');
    const card = cards[0];
    await signIn(page, CLIENT, 'portal', { to: `/app/contracts/${contract.id}` });
    await expect(page.getByRole('heading', { level: 1 })).toContainText(contract.name);
    const remaining = page.getByTestId('contract-remaining');
    await expect(remaining).not.toBeEmpty();
    const before = (await remaining.textContent())!.trim();
    const upgrade = page.getByRole('button', { name: 'Opwaarderen' });
    await expect(upgrade).toBeDisabled();
    await expectAccessible(page, 'prepaid contract');

    await page.getByRole('radio', { name: new RegExp(String(card.description)) }).check();
    await expect(upgrade).toBeEnabled();
    let reloaded = false;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) reloaded = true;
    });
    await upgrade.click();
    await expect(page.getByText('Strippenkaart opgewaardeerd')).toBeVisible();
    const toMinutes = (t: string) => {
      const [h, m] = t.split(':').map(Number);
      return h! * 60 + m!;
    };
    await expect
      .poll(async () => toMinutes((await remaining.textContent())!.trim()))
      .toBeGreaterThan(toMinutes(before));
    const after = (await records(page.request, 'contracts')).find((c) => c.id === contract.id);
    expect(toMinutes((await remaining.textContent())!.trim())).toBe(after.minutes_remaining);
    expect(after.minutes_remaining - toMinutes(before)).toBe(Number(card.hours) * 60);
    expect(reloaded).toBe(false);
  });

  test('a contract with periods lists its time registrations with links to the tickets', async ({ page }) => {
    const contract = (await records(page.request, 'contracts')).find((c) => c.period !== 'none');
    expect(!contract, 'no contract with periods').toBe(false);
    await signIn(page, CLIENT, 'portal', { to: `/app/contracts/${contract.id}` });
    await expect(page.getByRole('heading', { level: 2, name: 'Periodes' })).toBeVisible();
    await expect(page.getByText('Resterende uren')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Opwaarderen' })).toHaveCount(0);
    const link = page.locator('a[href^="/app/tickets/"]').first();
    await expect(link).toHaveAttribute('href', /^\/app\/tickets\/\d+$/);
    await expectAccessible(page, 'contract with periods');
  });

  test('an asset shows its cards and its table', async ({ page }) => {
    const asset = (await records(page.request, 'assets'))[0];
    expect(!asset, 'no asset').toBe(false);
    await signIn(page, CLIENT, 'portal', { to: `/app/assets/${asset.id}` });
    await expect(page.getByRole('heading', { level: 1 })).toContainText(asset.name);
    await expect(page.getByText('Garantie tot')).toBeVisible();
    // The warranty's badge depends on the date (SPEC 4): its states are tested on Playwright's clock in
    // journeys-badges.spec.ts.
    await expect(page.getByRole('table')).toBeVisible();
  });

  test('a subscription shows its cards, lines, total and monthly amount at 375 px', async ({ page }) => {
    const subscription = (await records(page.request, 'subscriptions'))[0];
    expect(!subscription, 'no subscription').toBe(false);
    await page.setViewportSize({ width: 375, height: 740 });
    await signIn(page, CLIENT, 'portal', { to: `/app/subscriptions/${subscription.id}` });
    await expect(page.getByRole('heading', { level: 1 })).toContainText(subscription.description);
    for (const label of ['Periode', 'Startdatum', 'Begin periode', 'Einde periode', 'Opzegdatum']) {
      await expect(page.getByText(label, { exact: true }).first()).toBeVisible();
    }
    await expect(page.getByTestId('subscription-total')).toContainText('€');
    await expect(page.getByTestId('subscription-mrr')).toContainText('€');
  });
  test('download an invoice from the invoice the list opens', async ({ page }) => {
    const invoice = (await records(page.request, 'invoices'))[0];
    expect(!invoice, 'no invoice').toBe(false);
    await signIn(page, CLIENT);
    await expect(page).toHaveURL(/\/app\/tickets$/);
    await page.getByRole('menuitem', { name: 'Facturen' }).click();
    await page
      .getByRole('row')
      .filter({ hasText: String(invoice.code) })
      .first()
      .click();
    await expect(page).toHaveURL(new RegExp(`/app/invoices/${invoice.id}$`));
    // The detail is a lazy chunk: its button is there once its heading is.
    await expect(page.getByRole('heading', { level: 1 })).toContainText(String(invoice.code));
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: `Factuur ${invoice.code} downloaden` }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${invoice.code}.pdf`);
    expect(
      readFileSync((await file.path())!)
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('%PDF');
  });
  test('download an invoice from the list: the link in its last column', async ({ page }) => {
    const invoice = (await records(page.request, 'invoices'))[0];
    expect(!invoice, 'no invoice').toBe(false);
    await signIn(page, CLIENT);
    await expect(page).toHaveURL(/\/app\/tickets$/);
    await page.getByRole('menuitem', { name: 'Facturen' }).click();
    await expect(page.getByRole('columnheader', { name: 'Downloaden' })).toBeVisible();
    // SPEC 2: invoice code, reference, amount including tax, date, status, download link; in that order.
    const headers = page.getByRole('columnheader');
    const expected = ['Factuurnummer', 'Referentie', 'Bedrag incl. btw', 'Datum', 'Status', 'Downloaden'];
    await expect(headers).toHaveCount(expected.length);
    for (const [i, name] of expected.entries()) await expect(headers.nth(i)).toContainText(name);
    // Each status is styled from the stored list (a coloured mark before its name).
    const firstRow = page
      .getByRole('row')
      .filter({ hasText: String(invoice.code) })
      .first();
    await expect(firstRow.locator('[data-style]')).toHaveCount(1);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: `Factuur ${invoice.code} downloaden` }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${invoice.code}.pdf`);
    expect(
      readFileSync((await file.path())!)
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('%PDF');
    await expect(page).toHaveURL(/\/app\/invoices$/);
  });
});
