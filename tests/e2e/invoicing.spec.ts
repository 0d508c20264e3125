import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn } from './support.ts';
import { readCsv } from '../csv-read.ts';

/** A GET of the API with the signed-in operator's token, as the app sends it. */
async function api<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (url) => {
    const token = localStorage.getItem('APP_PORTAL_TOKEN');
    const response = await fetch(`/api/${url}`, { headers: { Authorization: `Bearer ${token}` } });
    return response.json();
  }, path);
}

type Page1<T> = { data: T[] };

test('an operator invoices and de-invoices a time registration from its list, duplicates a quote, and exports an invoice', async ({
  page,
}) => {
  await signIn(page, 'admin@example.com', 'backoffice');
  await expect(page).toHaveURL(/\/tickets$/);

  await test.step('invoice and de-invoice from the time registrations list', async () => {
    const open = await api<Page1<{ id: number }>>(page, 'time-registrations/open?builder[0][paginate]=1');
    const id = open.data[0]?.id;
    expect(id, 'the demo has time registrations that are not invoiced').toBeDefined();
    await page.goto('/time-registrations');
    await page.getByLabel('Filter op ID').fill(String(id));
    const status = page.getByRole('status').filter({ hasText: / van \d+$/ });
    await expect(status).toHaveText('1-1 van 1');
    const row = page.getByRole('checkbox', { name: /^Rij .* selecteren$/ });
    const toolbar = page.getByRole('toolbar', { name: 'Acties voor de geselecteerde rijen' });

    await row.check();
    await expect(toolbar.getByText('1 geselecteerd')).toBeVisible();
    await expectAccessible(page, 'time registrations list with a selected row');
    await toolbar.getByRole('button', { name: 'Factureren', exact: true }).click();
    await expect(page.getByText('Regel toegevoegd aan conceptfactuur.')).toBeVisible();
    const invoiced = await api<{ invoice_id: number | null }>(page, `time-registrations/${id}`);
    expect(invoiced.invoice_id).not.toBeNull();
    // GET time-registrations/open: an invoiced registration is not in it.
    const onlyOpen = page.getByLabel('Alleen niet gefactureerd');
    await onlyOpen.check();
    await expect(row).toHaveCount(0);
    await onlyOpen.uncheck();
    await expect(row).toHaveCount(1);

    await row.check();
    await toolbar.getByRole('button', { name: 'Niet factureren' }).click();
    await expect(page.getByText('Regel verwijderd van conceptfactuur.')).toBeVisible();
    const back = await api<{ invoice_id: number | null }>(page, `time-registrations/${id}`);
    expect(back.invoice_id).toBeNull();

    // The record's own screen has the same two calls.
    await page.goto(`/time-registrations/${id}`);
    await page.getByRole('button', { name: 'Factureren', exact: true }).click();
    await expect(page.getByText('Regel toegevoegd aan conceptfactuur.')).toBeVisible();
    await expect(page.getByText('Op conceptfactuur')).toBeVisible();
    await page.getByRole('button', { name: 'Niet factureren' }).click();
    await expect(page.getByRole('button', { name: 'Factureren', exact: true })).toBeVisible();
    expect(
      (await api<{ invoice_id: number | null }>(page, `time-registrations/${id}`)).invoice_id,
    ).toBeNull();
  });

  await test.step('duplicate a quote from its detail screen', async () => {
    const quotes = await api<Page1<{ id: number; name: string }>>(
      page,
      'quotes?builder[0][where][0]=status_id&builder[0][where][1]=1&builder[1][paginate]=1',
    );
    const quote = quotes.data[0];
    expect(quote, 'the demo has a concept quote').toBeDefined();
    await page.goto(`/quotes/${quote!.id}`);
    // Scanned before any toast: a toast fading in is measured half transparent.
    await expect(page.getByRole('button', { name: 'Dupliceren' })).toBeVisible();
    await expectAccessible(page, 'back-office quote detail');
    await page.getByRole('button', { name: 'Dupliceren' }).click();
    await expect(page.getByText('Offerte gedupliceerd.')).toBeVisible();
    await expect(page).not.toHaveURL(new RegExp(`/quotes/${quote!.id}$`));
    await expect(page).toHaveURL(/\/quotes\/\d+$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(quote!.name);
    await expect(page.getByRole('button', { name: 'Versturen' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Afwijzen' })).toHaveCount(0);
  });

  await test.step('download the selected invoices as CSV', async () => {
    await page.goto('/invoices');
    await expect(page.getByRole('status').filter({ hasText: / van \d+$/ })).toHaveText(/^1-\d+ van \d+$/);
    await page.getByRole('checkbox', { name: 'Alle rijen op deze pagina selecteren' }).check();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'CSV downloaden' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('invoices.csv');
    const csv = await readCsv(readFileSync((await file.path())!));
    expect(csv.bom).toBe(true);
    expect(csv.rows[0]).toEqual([
      ...['code', 'reference', 'company', 'date', 'due_date', 'status'],
      ...['amount_excl', 'amount_incl', 'external_id'],
    ]);
    expect(csv.rows.length).toBeGreaterThan(1);
    for (const row of csv.rows) expect(row).toHaveLength(9);
  });

  await test.step('export an invoice as PDF; restore asks first', async () => {
    const invoices = await api<Page1<{ id: number; code: string }>>(
      page,
      'invoices?builder[0][whereNotNull]=external_id&builder[1][paginate]=1',
    );
    const invoice = invoices.data[0];
    expect(invoice, 'the demo has sent invoices').toBeDefined();
    await page.goto(`/invoices/${invoice!.id}`);
    await expect(page.getByText('Gefactureerd', { exact: true })).toBeVisible();
    await expectAccessible(page, 'back-office invoice detail');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exporteren' }).click();
    expect((await download).suggestedFilename()).toBe(`${invoice!.code}.pdf`);
    await expect(page.getByText('Factuur geëxporteerd.')).toBeVisible();
    await page.getByRole('button', { name: 'Terugzetten naar concept' }).click();
    await expect(page.getByRole('dialog')).toContainText('Deze factuur terugzetten naar concept?');
    await page.getByRole('button', { name: 'Annuleren' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});

test('a first-line operator without the invoicing permissions gets no selection and no invoice buttons', async ({
  page,
}) => {
  await signIn(page, 'operator@example.com', 'backoffice', { to: '/time-registrations' });
  await expect(page.getByRole('status').filter({ hasText: / van \d+$/ })).toHaveText(/^1-\d+ van \d+$/);
  await expect(page.getByRole('toolbar', { name: 'Acties voor de geselecteerde rijen' })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: /^Rij .* selecteren$/ })).toHaveCount(0);
  // The first cell: the operator and activity cells link to their own records (issue 14, item 9).
  await page.getByRole('row').nth(2).getByRole('cell').first().click();
  await expect(page).toHaveURL(/\/time-registrations\/\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Factureren', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Niet factureren' })).toHaveCount(0);
});
