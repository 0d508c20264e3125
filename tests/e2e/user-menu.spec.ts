/**
 * The user menu's button in both apps (issue 31, axe label-content-name-mismatch, WCAG 2.5.3): on a
 * desktop it shows the user's name, and its accessible name starts with that name ('Pieter Jansen,
 * profiel'), not 'Profiel' alone; on a phone, where it is an icon, it has the same name. It opens the
 * menu with the logout. axe-core's scans run that experimental rule (support.ts). In Dutch.
 */
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn } from './support.ts';

const USERS = [
  { app: 'portal', email: 'client@example.com', name: 'Pieter Jansen', to: '/app/tickets' },
  { app: 'backoffice', email: 'admin@example.com', name: 'Sanne Bakker', to: '/tickets' },
] as const;

for (const user of USERS) {
  test(`the ${user.app} user menu is named after the user it shows`, async ({ page }) => {
    await signIn(page, user.email, user.app, { to: user.to });
    // The app bar (and its user menu) draws before the list: axe scans the screen once it has its heading.
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const button = page.getByRole('button', { name: `${user.name}, profiel`, exact: true });
    await expect(button).toBeVisible();
    await expect(button).toHaveText(user.name);
    await expect(page.getByRole('button', { name: 'Profiel', exact: true })).toHaveCount(0);
    await expectAccessible(page, `${user.app} with the user menu (desktop)`);
    await button.click();
    await expect(page.getByRole('menuitem', { name: 'Uitloggen' })).toBeVisible();
    await page.keyboard.press('Escape');

    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByRole('button', { name: `${user.name}, profiel`, exact: true })).toBeVisible();
    await expectAccessible(page, `${user.app} with the user menu (375 px)`);
  });
}
