/**
 * The ticket list of both apps asks only for the fields its rows show (issue 40, item 2: the builder
 * item `select`): the answer leaves the other fields out, the rows still show each reference's name,
 * and a ticket opened from the list is read in full by its own call, not taken from the narrowed list.
 * At 1280 and 375 px, in Dutch and English, axe-clean (screenshots in /tmp/shots-list-columns/).
 */
import type { Page, Response } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, inLanguage, resetListLayouts, signIn, startIn, type Lang } from './support.ts';

const APPS = [
  // A field the list does not show, of the ticket and of its status.
  { app: 'backoffice', email: 'admin@example.com', hidden: 'sla_state', label: 'name' },
  { app: 'portal', email: 'client@example.com', hidden: 'stage', label: 'name_client' },
] as const;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/shots-list-columns/${name}.png`, fullPage: true });
}

/** The ticket list's own call (its path is /api/tickets, with a select item). */
const isList = (response: Response) =>
  new URL(response.url()).pathname === '/api/tickets' &&
  decodeURIComponent(response.url()).includes('[select]');

for (const { app, email, hidden, label } of APPS) {
  for (const lang of ['nl', 'en'] as const satisfies readonly Lang[]) {
    test(inLanguage(lang, `the ${app}'s ticket list asks for the fields it shows`), async ({ page }) => {
      await startIn(page, lang);
      await resetListLayouts(page.request, email);
      await page.setViewportSize({ width: 1280, height: 900 });
      const answered = page.waitForResponse(isList);
      await signIn(page, email, app, { locale: lang });
      const response = await answered;
      expect(response.status()).toBe(200);
      const rows = (await response.json()).data as Record<string, any>[];
      expect(rows.length).toBeGreaterThan(0);
      const first = rows[0]!;
      expect(first).not.toHaveProperty(hidden);
      expect(Object.keys(first.status).sort()).toEqual(
        [label, app === 'portal' ? 'style_client' : 'style', 'id'].sort(),
      );
      // The row shows its status by the name the answer carries.
      const row = page.locator('tbody tr').first();
      await expect(row).toContainText(first.status[label]);
      await shot(page, `${app}-${lang}-1280`);
      await expectAccessible(page, `${app} ticket list, ${lang}, 1280 px`);

      await page.setViewportSize({ width: 375, height: 800 });
      await expect(page.getByRole('table')).toHaveCount(0);
      await expect(page.locator('section').getByText(first.status[label]).first()).toBeVisible();
      await shot(page, `${app}-${lang}-375`);
      await expectAccessible(page, `${app} ticket cards, ${lang}, 375 px`);

      // Opened from the list, the ticket is read in full by its own call.
      await page.setViewportSize({ width: 1280, height: 900 });
      const detail = page.waitForResponse(
        (r) => new URL(r.url()).pathname === `/api/tickets/${first.id}` && r.request().method() === 'GET',
      );
      await page.locator('tbody tr').first().click();
      const full = await (await detail).json();
      expect(full).toHaveProperty(hidden);
    });
  }
}
