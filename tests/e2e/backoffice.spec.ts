import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn } from './support.ts';

test('an operator finds every resource in the menu and pages through one', async ({ page }) => {
  await signIn(page, 'admin@example.com', 'backoffice');
  await expect(page).toHaveURL(/\/tickets$/);
  for (const item of ['Tickets', 'Bedrijven', 'Offertes', 'Facturen', 'Klanten']) {
    await expect(page.getByRole('menuitem', { name: item, exact: true })).toBeVisible();
  }
  const status = page.getByRole('status').filter({ hasText: / van \d+$/ });
  await expect(status).toHaveText(/^1-15 van \d+$/);
  const total = Number((await status.textContent())!.split(' van ')[1]);
  await page.getByRole('button', { name: 'Volgende pagina' }).click();
  await expect(status).toHaveText(`16-30 van ${total}`);
  await page.getByRole('button', { name: 'Pagina 1', exact: true }).click();
  await expect(status).toHaveText(`1-15 van ${total}`);
  await expectAccessible(page, 'back-office tickets list');
});
