/**
 * Issue 36, item 1: a second-line operator opens the service report from the menu, reads this month per
 * week as a chart and as its table, changes the period and the grouping, and finds the table's total
 * equal to what the API counts; axe-core at 1280 and 375 px, where the page fits the screen. A
 * first-line operator has no such menu entry. In English, the report per company: its rows are the API's,
 * a count opens its tickets, and the period's Excel file and the breakdown's CSV read back with typed
 * cells. Each journey in one language; the words in all three are typed against the English file
 * (src/i18n/nl/reports.ts).
 */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, test } from './fixtures.ts';
import { expectAccessible, forgetTicketListLayout, inLanguage, signIn, startIn } from './support.ts';

// A figure's filter stays as the operator's ticket list layout (kept on the server too): the specs after
// this one on the worker's server find the list as the demo left it.
test.afterEach(async ({ request }) => {
  await forgetTicketListLayout(request, ['admin@example.com']);
});

test(
  inLanguage('nl', 'a second-line operator reads the service report as a chart and its table'),
  async ({ page }) => {
    await startIn(page, 'nl');
    const token = await signIn(page, 'admin@example.com', 'backoffice', { to: '/' });
    // Today's own ticket, so this month has one at least.
    const created = await page.request.post('/api/tickets', {
      headers: { authorization: `Bearer ${token}` },
      data: { description: 'Rapportage e2e' },
    });
    expect(created.status(), await created.text()).toBe(201);

    await page.getByRole('menuitem', { name: 'Rapportages', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Rapportages' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Dezelfde cijfers per periode, en in totaal' });
    await expect(table).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Tickets' })).toBeVisible();
    // The chart draws one bar group per week; it is hidden from screen readers, who read the table.
    await expect(page.locator('svg .MuiBarChart-element').first()).toBeAttached();

    // The table's total is the API's: created this month.
    const now = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    const from = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-01`;
    const last = new Date(now.getFullYear(), now.getMonth() + 1, 0);
    const to = `${last.getFullYear()}-${pad(last.getMonth() + 1)}-${pad(last.getDate())}`;
    const api = await page.request.get(`/api/reports/tickets?from=${from}&to=${to}&group=week`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const answer = (await api.json()) as { rows: unknown[]; total: { created: number } };
    expect(answer.total.created).toBeGreaterThan(0);
    const total = table.getByRole('row', { name: /^Totaal/ });
    await expect(total.getByRole('cell').first()).toHaveText(String(answer.total.created));
    // A header row, a row per week and the total.
    await expect(table.getByRole('row')).toHaveCount(answer.rows.length + 2);

    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(table).toBeVisible();
      await expectAccessible(page, `reports, ${width} px, nl`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `the page fits ${width} px`).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // Last year by month: twelve months and the total.
    await page.getByRole('combobox', { name: 'Periode Deze maand' }).click();
    await page.getByRole('option', { name: 'Vorig jaar' }).click();
    await page.getByRole('combobox', { name: 'Per Week' }).click();
    await page.getByRole('option', { name: 'Maand' }).click();
    await expect(table.getByRole('row')).toHaveCount(14);

    // Back to this month, for one company: the total created is the API's for it, and opens the ticket
    // list with exactly those tickets (the period in the creation date's range filter, the company).
    await page.getByRole('combobox', { name: 'Periode Vorig jaar' }).click();
    await page.getByRole('option', { name: 'Deze maand' }).click();
    await page.getByRole('combobox', { name: 'Bedrijf' }).fill('Jansen');
    await page.getByRole('option', { name: 'Jansen BV' }).click();
    await page.keyboard.press('Escape');
    const jansen = (await (
      await page.request.get('/api/companies?builder[0][where][0]=name&builder[0][where][1]=Jansen BV', {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { data: { id: number }[] };
    const forJansen = (await (
      await page.request.get(
        `/api/reports/tickets?from=${from}&to=${to}&group=week&company_id[0]=${jansen.data[0]!.id}`,
        { headers: { authorization: `Bearer ${token}` } },
      )
    ).json()) as { total: { created: number } };
    const n = forJansen.total.created;
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(answer.total.created);
    await total.getByRole('link', { name: `Totaal, Aangemaakt: ${n}. Open de lijst` }).click();
    await expect(page).toHaveURL(/\/tickets$/);
    await expect(page.getByText(`1-${Math.min(n, 15)} van ${n}`, { exact: true })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Jansen BV' }).first()).toBeVisible();
  },
);

test(inLanguage('nl', 'a first-line operator is offered no reports'), async ({ page }) => {
  await startIn(page, 'nl');
  await signIn(page, 'operator@example.com', 'backoffice', { to: '/' });
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Tickets', exact: true })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Rapportages' })).toHaveCount(0);
});

test(
  inLanguage('en', 'the report per company opens its tickets, and its files read back with typed cells'),
  async ({ page }) => {
    await startIn(page, 'en');
    const token = await signIn(page, 'admin@example.com', 'backoffice', { to: '/reports' });
    const auth = { authorization: `Bearer ${token}` };
    // The last 365 days: the demo's histories lie in them whenever it is made.
    const day = (d: Date) => d.toLocaleDateString('sv');
    const from = day(new Date(Date.now() - 364 * 86_400_000));
    const to = day(new Date());
    await page.getByRole('combobox', { name: 'Period This month' }).click();
    await page.getByRole('option', { name: 'Custom period' }).click();
    await page.getByLabel('From', { exact: true }).fill(from);
    await page.getByLabel('To', { exact: true }).fill(to);
    await page.getByRole('combobox', { name: 'Per Week' }).click();
    await page.getByRole('option', { name: 'Month' }).click();
    await page.getByRole('combobox', { name: 'Per Operator' }).click();
    await page.getByRole('option', { name: 'Company' }).click();
    const perCompany = page.getByRole('table', {
      name: 'The figures of the period per company, and in total',
    });
    await expect(perCompany).toBeVisible();

    // The same rows as the API's breakdown of the period, each company by name.
    const query = `from=${from}&to=${to}&group=month&by=company_id`;
    const api = (await (
      await page.request.get(`/api/reports/tickets/breakdown?${query}`, { headers: auth })
    ).json()) as {
      rows: { key: number | null; name: string | null; created: number }[];
    };
    expect(api.rows.length).toBeGreaterThan(1);
    await expect(perCompany.getByRole('row')).toHaveCount(api.rows.length + 2);
    const jansen = api.rows.find((r) => r.name === 'Jansen BV')!;
    expect(jansen.created).toBeGreaterThan(0);
    // Its count opens the ticket list with exactly its tickets of the period (at the end).
    const row = perCompany.getByRole('row', { name: /^Jansen BV/ });

    // The breaches the report counts, the latest first: as many as the API says, each opening its ticket.
    const breaches = (await (
      await page.request.get(`/api/reports/tickets/breaches?from=${from}&to=${to}&limit=50`, {
        headers: auth,
      })
    ).json()) as { total: number; rows: { ticket_id: number; reference: string }[] };
    // The demo's histories breach a target every few tickets: more than fit at first.
    expect(breaches.total).toBeGreaterThan(10);
    // The latest ten at first, fifty more a click.
    const breachTable = page.getByRole('table', { name: `The latest 10 of ${breaches.total} breaches` });
    await expect(breachTable.getByRole('row')).toHaveCount(11);
    await page.getByRole('button', { name: 'Show more' }).click();
    const more = Math.min(breaches.total, 60);
    const longer = page.getByRole('table', { name: `The latest ${more} of ${breaches.total} breaches` });
    await expect(longer.getByRole('row')).toHaveCount(more + 1);
    await expectAccessible(page, 'reports with breaches and per company, 1280 px, en');

    // The period table as Excel: English headers over date and number cells.
    const periods = page.getByRole('table', { name: 'The same figures per period, and in total' });
    const months = (await (
      await page.request.get(`/api/reports/tickets?from=${from}&to=${to}&group=month`, { headers: auth })
    ).json()) as { rows: unknown[] };
    await expect(periods.getByRole('row')).toHaveCount(months.rows.length + 2);
    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page
        .getByRole('button', { name: 'Download The same figures per period, and in total as Excel' })
        .click(),
    ]);
    expect(xlsx.suggestedFilename()).toBe(`report-${from}-${to}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile((await xlsx.path())!);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(1).value).toBe('Period');
    expect(sheet.getRow(1).getCell(3).value).toBe('Created');
    expect(sheet.getRow(2).getCell(1).value).toEqual(new Date(`${from}T00:00:00Z`));
    const last = sheet.getRow(months.rows.length + 2);
    expect(last.getCell(1).value).toBe('Total');
    expect(typeof last.getCell(3).value).toBe('number');

    // The per-company table as CSV: parsed, its Jansen BV line says what the page and the API say.
    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page
        .getByRole('button', { name: 'Download The figures of the period per company, and in total as CSV' })
        .click(),
    ]);
    const lines = readFileSync((await csv.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(';'));
    expect(lines[0]!.slice(0, 3)).toEqual(['Company', 'Created', 'Solved']);
    expect(lines.find((l) => l[0] === 'Jansen BV')![1]).toBe(String(jansen.created));
    expect(lines).toHaveLength(api.rows.length + 2);

    await row.getByRole('link', { name: `Jansen BV, Created: ${jansen.created}. Open the list` }).click();
    await expect(page).toHaveURL(/\/tickets$/);
    const page1 = Math.min(jansen.created, 15);
    await expect(page.getByText(`1-${page1} of ${jansen.created}`, { exact: true })).toBeVisible();

    // Back on the report, a breach opens its ticket.
    await page.goBack();
    const breachList = page.getByRole('region', { name: 'SLA breaches' });
    await breachList.getByRole('link', { name: breaches.rows[0]!.reference }).first().click();
    await expect(page).toHaveURL(new RegExp(`/tickets/${breaches.rows[0]!.ticket_id}/show$`));
  },
);
