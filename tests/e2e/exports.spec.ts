/**
 * Exports (issue 6): an operator exports the tickets list, the toast shows the server's message
 * (SPEC 8 'Export success shows the server message'), the background job finishes, and the file is
 * downloaded from the exports page; axe-core scans that page on a desktop and at 375 px.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn } from './support.ts';

/** A demo ticket (server/db/seed/demo.ts) of the list's first page and of the file. */
const DEMO_TICKET = 'Printer op de eerste verdieping drukt niet af';

test('an operator runs an export of the tickets list and downloads it', async ({ page }) => {
  await signIn(page, 'admin@example.com', 'backoffice');
  await expect(page).toHaveURL(/\/tickets$/);
  await page.getByRole('button', { name: 'Exporteren' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /^De export is gestart\. Je krijgt een e-mail/ }),
  ).toBeVisible();

  await page.getByRole('menuitem', { name: 'Exports' }).click();
  await expect(page).toHaveURL(/\/exports$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Exports' })).toBeVisible();
  await expect(page).toHaveTitle(/^Exports - Acme IT$/);
  const row = page.getByRole('row').filter({ hasText: 'Tickets' }).first();
  // The page asks again while the job runs: 'Klaar' appears without a reload.
  await expect(row.getByText('Klaar')).toBeVisible({ timeout: 20_000 });
  await expectAccessible(page, 'exports page');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: /downloaden als CSV$/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^tickets-\d{4}-\d{2}-\d{2}-\d+\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  const [header, ...lines] = csv.slice(1).split('\r\n');
  // The columns the table shows, under the headers it shows.
  expect(header!.split(';')).toContain('Omschrijving');
  expect(lines.some((line) => line.includes(DEMO_TICKET))).toBe(true);

  const [excel] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('button', { name: /downloaden als Excel$/ }).click(),
  ]);
  expect(excel.suggestedFilename()).toMatch(/\.xlsx$/);

  // A phone opens the page at its own width (a desktop's open sidebar would stay open as a drawer).
  await page.setViewportSize({ width: 375, height: 760 });
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Tickets' }).first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectAccessible(page, 'exports page at 375 px');
});
