/**
 * An address that names no screen shows the app's 'Page not found' (SPEC 2), never a blank page (issue
 * 31): in the portal a resource it has no screen for (`/app/companies`, `/app/clients/3`, which the
 * client may read for references) and a path below a record; in the back office a path below a record,
 * which showed the resource's list, and a path naming nothing, which showed react-admin's own page (its
 * grey text failed axe's contrast check). In Dutch; axe-core scans each kind of page.
 */
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn } from './support.ts';

test('unknown portal paths show the portal 404 page', async ({ page }) => {
  await signIn(page, 'client@example.com', 'portal', { to: '/app/companies' });
  for (const path of ['/app/companies', '/app/clients/3', '/app/tickets/1/onbekend']) {
    if (path !== '/app/companies') await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Pagina niet gevonden' }), path).toBeVisible();
    await expect(page.getByText('De pagina die je zoekt bestaat niet of is verplaatst.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Terug naar de tickets' })).toBeVisible();
    if (path === '/app/companies') await expectAccessible(page, `404 at ${path}`);
  }
  await page.getByRole('link', { name: 'Terug naar de tickets' }).click();
  await expect(page).toHaveURL(/\/app\/tickets$/);
});

test('unknown back-office paths show the same 404 page, also below a record (not the list)', async ({
  page,
}) => {
  await signIn(page, 'admin@example.com', 'backoffice', { to: '/companies/1/onbekend' });
  for (const path of ['/companies/1/onbekend', '/bestaat-niet']) {
    if (path !== '/companies/1/onbekend') await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Pagina niet gevonden' }), path).toBeVisible();
    await expect(page.getByRole('columnheader')).toHaveCount(0);
    await expectAccessible(page, `back-office 404 at ${path}`);
  }
  await page.getByRole('link', { name: 'Terug naar de tickets' }).click();
  await expect(page).toHaveURL(/\/tickets$/);
  await page.goto('/companies/1');
  await expect(page.getByRole('heading', { level: 1, name: /Bedrijf$/ })).toBeVisible();
});
