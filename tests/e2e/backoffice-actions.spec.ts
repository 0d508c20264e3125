/**
 * The back office's detail screen and record actions (issue 6): create, edit and delete with the spec's
 * toasts, close, restore and clone a ticket, a ticket's merge dialog that deletes nothing, merge two
 * companies, a missing record back to its list, and a first-line operator without the merge button. Records are made through the screens (an API
 * login would end the browser's session: one session per account); axe-core scans a detail with its
 * action buttons (a company's) and the merge dialog.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn } from './support.ts';

const ADMIN = 'admin@example.com';
const FIRST_LINE = 'operator@example.com';

/** A name no other test file uses, so searches find only this run's records. */
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}`;

/** A success toast with this text; closed once seen, as toasts show one at a time for 5 s each. */
async function expectToast(page: Page, text: string) {
  const toast = page.getByRole('status').filter({ hasText: text });
  await expect(toast).toBeVisible();
  await toast.getByRole('button').click();
  await expect(toast).toHaveCount(0);
}

/** Creates a record through the generic create screen; answers its id (the detail's address). */
async function create(
  page: Page,
  resource: string,
  label: string,
  value: string,
  choose: [select: string, option: string][] = [],
): Promise<number> {
  await page.goto(`/${resource}/create`);
  await page.getByLabel(label).first().fill(value);
  // Required select fields (a ticket's required custom field).
  for (const [select, option] of choose) {
    await page.getByRole('combobox', { name: select }).click();
    await page.getByRole('option', { name: option }).click();
  }
  await page.getByRole('button', { name: 'Opslaan', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/${resource}/\\d+$`));
  return Number(page.url().split('/').pop());
}

/** Opens the first record of the list shown, once the list has loaded (its 'from-to of total' counter). */
async function openFirstRow(page: Page) {
  await expect(page.getByRole('status').filter({ hasText: / van \d+$/ })).toBeVisible();
  // The first cell: a reference elsewhere in the row is a link to its own record (issue 14, item 9);
  // the bulk selection's checkbox cell (x-bulk) does not open the row.
  await page
    .getByRole('row')
    .nth(1)
    .getByRole('cell')
    .filter({ hasNot: page.getByRole('checkbox') })
    .first()
    .click();
}

test('an operator creates, edits, closes, restores, clones and deletes a ticket', async ({ page }) => {
  await signIn(page, ADMIN, 'backoffice');
  await expect(page).toHaveURL(/\/tickets$/);
  const description = unique('E2E actie-ticket');
  const id = await create(page, 'tickets', 'Omschrijving', description, [['Impact', 'Afdeling']]);
  await expect(page).toHaveTitle(/ - Ticket - Acme IT$/);

  await page.getByRole('button', { name: 'Bewerken' }).click();
  await page.getByLabel('Omschrijving').fill(`${description} bijgewerkt`);
  await page.getByRole('button', { name: 'Opslaan', exact: true }).click();
  await expectToast(page, 'Item bijgewerkt.');
  await expect(page.getByText(`${description} bijgewerkt`)).toBeVisible();

  await page.getByRole('button', { name: 'Sluiten', exact: true }).click();
  await expectToast(page, 'Ticket gesloten.');
  await expect(page.getByRole('button', { name: 'Sluiten', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Herstellen' }).click();
  await expectToast(page, 'Ticket hersteld.');
  await expect(page.getByRole('button', { name: 'Sluiten', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Herstellen' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Klonen' }).click();
  await expectToast(page, 'Ticket aangemaakt');
  await expect(page).not.toHaveURL(new RegExp(`/tickets/${id}$`));
  await expect(page).toHaveURL(/\/tickets\/\d+$/);
  await expect(page.getByText(`${description} bijgewerkt`)).toBeVisible();

  // The clone's Merge dialog (issue 37): it speaks of merging, and says nothing is deleted (companies'
  // merge does delete; this one closes). Cancelled: the deletes below need both tickets.
  await page.getByRole('button', { name: 'Samenvoegen' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading')).toHaveText(/^Tickets samenvoegen in \S+$/);
  await expect(dialog).toContainText('Hun berichten, tijd en producten gaan naar dit ticket');
  await dialog.getByRole('combobox', { name: 'Zoeken' }).fill(`${description} bijgewerkt`);
  await page.getByRole('option', { name: new RegExp(`${description} bijgewerkt$`) }).click();
  await dialog.getByRole('button', { name: 'Verder' }).click();
  await expect(dialog).toContainText('wordt samengevoegd in');
  await expect(dialog).toContainText('Er wordt niets verwijderd.');
  const said = (await dialog.innerText()).replace('Er wordt niets verwijderd.', '');
  expect(said).not.toMatch(/verwijder/i);
  await expect(dialog.getByRole('button', { name: 'Verwijderen' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Annuleren' }).click();
  await expect(dialog).toHaveCount(0);

  // Delete the clone, then the original: each goes back to the list (newest first), where it is gone.
  for (const path of [page.url(), `/tickets/${id}`]) {
    await page.goto(path);
    await page.getByRole('button', { name: 'Verwijderen' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Verwijderen' }).click();
    await expectToast(page, 'Item verwijderd.');
    await expect(page).toHaveURL(/\/tickets$/);
  }
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByText(description)).toHaveCount(0);
});

test('an operator merges a company into another; the merged one is gone', async ({ page }) => {
  await signIn(page, ADMIN, 'backoffice');
  await expect(page).toHaveURL(/\/tickets$/);
  const goneName = unique('E2E samen weg');
  const gone = await create(page, 'companies', 'Naam', goneName);
  const keptName = unique('E2E samen blijft');
  const kept = await create(page, 'companies', 'Naam', keptName);
  await expect(page.getByRole('button', { name: 'Archiveren' })).toBeVisible();
  await expectAccessible(page, 'company detail with its actions');

  await page.getByRole('button', { name: 'Samenvoegen' }).click();
  const dialog = page.getByRole('dialog');
  const search = dialog.getByRole('combobox', { name: 'Zoeken' });
  await search.fill('E');
  await expect(page.getByText('Typ nog 1 teken')).toBeVisible();
  await search.fill(goneName);
  await page.getByRole('option', { name: goneName }).click();
  await expectAccessible(page, 'company merge dialog');
  await dialog.getByRole('button', { name: 'Verder' }).click();
  // The confirmation names the merge: which company goes into which, and that it is deleted then.
  await expect(dialog).toContainText(`${goneName} wordt samengevoegd in ${keptName}`);
  await expect(dialog).toContainText(`daarna wordt ${goneName} verwijderd`);
  await dialog.getByRole('button', { name: 'Samenvoegen' }).click();
  await expectToast(page, 'Bedrijven samengevoegd.');
  await expect(page).toHaveURL(new RegExp(`/companies/${kept}$`));

  // A record that is not there (merged away, or never existed) returns to the list.
  await page.goto(`/companies/${gone}`);
  await expect(page).toHaveURL(/\/companies$/);
  await page.goto('/companies/999999');
  await expect(page).toHaveURL(/\/companies$/);
});

test('a first-line operator sees no merge or company archive buttons', async ({ page }) => {
  await signIn(page, FIRST_LINE, 'backoffice');
  await expect(page).toHaveURL(/\/tickets$/);
  await openFirstRow(page);
  await expect(page).toHaveURL(/\/tickets\/\d+$/);
  await expect(page.getByRole('button', { name: 'Klonen' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Samenvoegen' })).toHaveCount(0);
  await page.goto('/companies');
  await openFirstRow(page);
  await expect(page).toHaveURL(/\/companies\/\d+$/);
  await expect(page.getByRole('button', { name: 'Bewerken' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Samenvoegen' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Archiveren' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Verwijderen' })).toHaveCount(0);
});

test('template tickets live at /tickets/templates/{id}; clients and operators at their own paths', async ({
  page,
}) => {
  await signIn(page, ADMIN, 'backoffice', { to: '/ticket-templates' });
  await openFirstRow(page);
  await expect(page).toHaveURL(/\/tickets\/templates\/\d+$/);
  await expect(page).toHaveTitle(/ - Ticketsjabloon - Acme IT$/);
  // Saved through ticket-templates (SPEC 7): the edit reaches the template.
  await page.getByRole('button', { name: 'Bewerken' }).click();
  const description = page.getByLabel('Omschrijving');
  await expect(description).not.toHaveValue('');
  const before = await description.inputValue();
  await description.fill(`${before}.`);
  await page.getByRole('button', { name: 'Opslaan', exact: true }).click();
  await expectToast(page, 'Item bijgewerkt.');
  await expect(page.getByRole('heading', { name: `${before}. - Ticketsjabloon` })).toBeVisible();
  await page.goto('/tickets/templates/999999');
  await expect(page).toHaveURL(/\/ticket-templates$/);

  for (const resource of ['clients', 'operators']) {
    await page.goto(`/${resource}`);
    await openFirstRow(page);
    await expect(page).toHaveURL(new RegExp(`/${resource}/\\d+$`));
  }
});
