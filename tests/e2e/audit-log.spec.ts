/**
 * The audit log in the back office (issue 38, item 5): second line opens it from the settings menu,
 * filters it by action and sees its own sign-in, with who and from where; at 1280 and 375 px, in Dutch
 * and English, axe-clean (screenshots in /tmp/shots-audit/). That first line may not read it is
 * tested at the API (tests/api/audit-log.test.ts).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, inLanguage, resetListLayouts, signIn, startIn, type Lang } from './support.ts';

const ADMIN = 'admin@example.com';

const TEXTS = {
  nl: { heading: 'Auditlog', action: 'Actie', signedIn: 'Aangemeld', failed: 'Aanmelden mislukt' },
  en: { heading: 'Audit log', action: 'Action', signedIn: 'Signed in', failed: 'Sign-in failed' },
} as const;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/shots-audit/${name}.png`, fullPage: true });
}

for (const lang of ['nl', 'en'] as const satisfies readonly Lang[]) {
  const t = TEXTS[lang];

  test(
    inLanguage(lang, 'second line filters the audit log by action and sees a sign-in'),
    async ({ page }) => {
      await startIn(page, lang);
      // The list as it starts: a filter the other language's test chose is kept with the user's layout.
      await resetListLayouts(page.request, ADMIN, ['audit-log.index']);
      // A failed sign-in first: the filter must leave it out.
      const failed = await page.request.post('/api/auth/login', {
        data: { username: ADMIN, password: 'not-the-password' },
      });
      expect(failed.status()).toBe(422);
      await page.setViewportSize({ width: 1280, height: 900 });
      await signIn(page, ADMIN, 'backoffice', { locale: lang });
      // From the menu's settings group.
      await page.getByRole('menuitem', { name: t.heading, exact: true }).click();
      await expect(page).toHaveURL(/\/audit-log$/);
      await expect(page.getByRole('heading', { level: 1, name: t.heading })).toBeVisible();
      const rows = page.locator('tbody tr');
      await expect(rows.filter({ hasText: t.failed }).first()).toBeVisible();

      await page
        .getByRole('combobox', { name: `${lang === 'nl' ? 'Filter op' : 'Filter on'} ${t.action}` })
        .click();
      await page.getByRole('option', { name: t.signedIn, exact: true }).click();
      await page.keyboard.press('Escape');
      await expect(rows.filter({ hasText: t.failed })).toHaveCount(0);
      const signIn1280 = rows.filter({ hasText: t.signedIn }).filter({ hasText: ADMIN }).first();
      await expect(signIn1280).toBeVisible();
      await shot(page, `list-${lang}-1280`);
      await expectAccessible(page, `audit log, ${lang}, 1280 px`);

      // The same filtered list on a phone: cards, none wider than the screen.
      await page.setViewportSize({ width: 375, height: 800 });
      await expect(page.getByRole('heading', { level: 1, name: t.heading })).toBeVisible();
      await expect(page.getByRole('table')).toHaveCount(0);
      const card = page
        .locator('.MuiCard-root')
        .filter({ hasText: t.signedIn })
        .filter({ hasText: ADMIN })
        .first();
      await expect(card).toBeVisible();
      await expect(page.locator('.MuiCard-root').filter({ hasText: t.failed })).toHaveCount(0);
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(sideways).toBeLessThanOrEqual(0);
      await shot(page, `list-${lang}-375`);
      await expectAccessible(page, `audit log, ${lang}, 375 px`);
    },
  );
}
