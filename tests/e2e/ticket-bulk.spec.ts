/**
 * Bulk actions on the back office's ticket list (issue 18, item 3), as an operator works them: filter the
 * list, tick the rows, set the priority and the operator of all of them, merge them and close what is
 * left, each with a toast counting what changed; a first-line operator is offered no merge.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { api, expectAccessible, forgetTicketListLayout, storeSession } from './support.ts';

/** `count` tickets of Jansen BV whose description starts with `mark`. */
async function newTickets(page: Page, token: string, mark: string, count: number) {
  const companies = await api(
    page,
    token,
    'GET',
    '/companies?builder[0][where][0]=name&builder[0][where][1]==&builder[0][where][2]=Jansen BV',
  );
  for (let i = 1; i <= count; i++)
    await api(page, token, 'POST', '/tickets', {
      description: `${mark} ${i}`,
      company_id: companies.data[0].id,
    });
}

async function expectToast(page: Page, text: string) {
  const toast = page.getByRole('status').filter({ hasText: text });
  await expect(toast).toBeVisible();
  await toast.getByRole('button').click();
  await expect(toast).toHaveCount(0);
}

/** The ticket list filtered on the description `mark`, with its `count` rows shown. */
async function filteredList(page: Page, mark: string, count: number) {
  await page.goto('/tickets');
  // A user without a default view of their own starts on their open tickets: these are nobody's yet.
  const view = page.getByRole('combobox', { name: /^Weergave\b/ });
  await view.click();
  await page.getByRole('option', { name: 'Alle tickets' }).click();
  await expect(view).toHaveText('Alle tickets');
  await page.getByRole('textbox', { name: 'Filter op Omschrijving' }).fill(mark);
  await expect(page.getByRole('checkbox', { name: /^Rij .* selecteren$/ })).toHaveCount(count);
}

// The description filter stays as each operator's own list layout on the server: the specs after this one
// on the worker's server find the ticket list as the demo left it.
test.afterEach(async ({ request }) => {
  await forgetTicketListLayout(request, ['admin@example.com', 'operator@example.com']);
});

const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Acties voor de geselecteerde rijen' });

test('a second-line operator sets priority and operator, merges and closes the selected tickets', async ({
  page,
}) => {
  const token = await storeSession(page, 'admin@example.com');
  const mark = `Bulkwandeling ${Date.now()}`;
  await newTickets(page, token, mark, 3);
  await filteredList(page, mark, 3);
  const bar = toolbar(page);

  await page.getByRole('checkbox', { name: 'Alle rijen op deze pagina selecteren' }).check();
  await expect(bar).toContainText('3 geselecteerd');
  await expectAccessible(page, 'ticket list with a selection, 1280 px');

  await bar.getByRole('combobox', { name: 'Prioriteit' }).click();
  await page.getByRole('option', { name: 'Hoog', exact: true }).click();
  await expectToast(page, '3 tickets gewijzigd');
  await expect(page.getByRole('row').filter({ hasText: mark }).filter({ hasText: 'Hoog' })).toHaveCount(3);

  await page.getByRole('checkbox', { name: 'Alle rijen op deze pagina selecteren' }).check();
  await bar.getByRole('combobox', { name: 'Operator' }).click();
  await page.getByRole('option', { name: 'Daan Visser', exact: true }).click();
  await expectToast(page, '3 tickets gewijzigd');

  // Ticked one by one: the merge keeps the ticket ticked first, and its confirmation says so by name.
  const references = await page
    .getByRole('row')
    .filter({ hasText: mark })
    .evaluateAll((rows) => rows.map((row) => row.querySelectorAll('td')[1]!.textContent!.trim()));
  expect(references).toHaveLength(3);
  const [second, kept, third] = references as [string, string, string];
  for (const reference of [kept, second, third])
    await page.getByRole('checkbox', { name: `Rij ${reference} selecteren` }).check();
  await bar.getByRole('button', { name: 'Samenvoegen' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText(`Samenvoegen in ${kept}`);
  await expect(dialog).toContainText(
    `${second} en ${third} worden samengevoegd in ${kept}, de rij die het eerst is geselecteerd`,
  );
  await expect(dialog).toContainText(`en ${second} en ${third} worden gesloten. Er wordt niets verwijderd.`);
  await expect(dialog).not.toContainText(/verwijderen/i);
  await expectAccessible(page, 'bulk merge confirmation, 1280 px');
  await dialog.getByRole('button', { name: 'Samenvoegen' }).click();
  await expectToast(page, '3 tickets gewijzigd');
  // The one ticked first is the one left open.
  await expect(page.getByRole('row').filter({ hasText: kept }).filter({ hasText: 'Opgelost' })).toHaveCount(
    0,
  );

  // The merge closed two of them; closing all three changes only the one still open.
  await page.getByRole('checkbox', { name: 'Alle rijen op deze pagina selecteren' }).check();
  await bar.getByRole('button', { name: 'Sluiten' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sluiten' }).click();
  await expectToast(page, '1 ticket gewijzigd');
  await expect(page.getByRole('row').filter({ hasText: mark }).filter({ hasText: 'Opgelost' })).toHaveCount(
    3,
  );
});

test('a first-line operator may close in bulk but is offered no merge', async ({ page }) => {
  const token = await storeSession(page, 'operator@example.com');
  const mark = `Bulk eerste lijn ${Date.now()}`;
  await newTickets(page, token, mark, 2);
  await filteredList(page, mark, 2);
  // One row of two ticked: the page's box is half ticked, for the browser too (what a screen reader
  // says), and passes axe, whose rule compares aria-checked with the box's own state.
  const all = page.getByRole('checkbox', { name: 'Alle rijen op deze pagina selecteren' });
  await page
    .getByRole('checkbox', { name: /^Rij .* selecteren$/ })
    .first()
    .check();
  await expect(all).toHaveJSProperty('indeterminate', true);
  await expect(all).toHaveAttribute('aria-checked', 'mixed');
  await expectAccessible(page, 'ticket list with one of two rows ticked, 1280 px');
  await all.check();
  await expect(all).toHaveJSProperty('indeterminate', false);
  const bar = toolbar(page);
  await expect(bar).toContainText('2 geselecteerd');
  await expect(bar.getByRole('button', { name: 'Sluiten' })).toBeEnabled();
  await expect(bar.getByRole('button', { name: 'Samenvoegen' })).toHaveCount(0);
  // Narrowed to a phone's width, the menu that stood beside the page does not open over it as a drawer
  // (one that hid the whole page from assistive technology, and from this scan): the cards are there.
  await page.setViewportSize({ width: 375, height: 800 });
  const cards = page.getByRole('checkbox', { name: 'Alles op deze pagina selecteren' });
  await expect(cards).toBeChecked();
  await expect(page.locator('#root')).not.toHaveAttribute('aria-hidden', 'true');
  await expectAccessible(page, 'ticket list, 375 px');
  // One card unticked leaves the page's box half ticked, as on the desktop.
  await page
    .getByRole('checkbox', { name: /^T-.* selecteren$/ })
    .first()
    .uncheck();
  await expect(cards).toHaveJSProperty('indeterminate', true);
  await expect(bar).toContainText('1 geselecteerd');
  await expectAccessible(page, 'ticket cards with one of two ticked, 375 px');
});
