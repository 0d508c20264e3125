/**
 * API tokens in the back office (issue 38, item 3): an operator makes a token from the settings menu,
 * sees it once with a copy button and the warning that it is not shown again, calls the API with it,
 * and revokes it on its detail page, after which the API refuses it. In Dutch at 1280 px and in English
 * at 375 px, axe-clean (screenshots in /tmp/shots-api-tokens/). Scopes, expiry, the limit per token and
 * revocation across instances are tested at the API (tests/api/api-tokens-making.test.ts,
 * tests/api/api-tokens-use.test.ts).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, inLanguage, signIn, startIn, type Lang } from './support.ts';

const OPERATOR = 'operator@example.com';

const CASES = [
  {
    lang: 'nl',
    width: 1280,
    heading: 'API-tokens',
    create: 'Token maken',
    name: 'Naam',
    scopes: 'Rechten',
    once: 'U ziet het niet meer terug',
    copy: 'Token kopiëren',
    done: 'Klaar',
    revoke: 'Intrekken',
    revoked: 'Token ingetrokken.',
  },
  {
    lang: 'en',
    width: 375,
    heading: 'API tokens',
    create: 'Create token',
    name: 'Name',
    scopes: 'Scopes',
    once: 'You will not see it again',
    copy: 'Copy token',
    done: 'Done',
    revoke: 'Revoke',
    revoked: 'Token revoked.',
  },
] as const satisfies readonly { lang: Lang; width: number; [key: string]: unknown }[];

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/shots-api-tokens/${name}.png`, fullPage: true });
}

const ticketsWith = (page: Page, token: string) =>
  page.request.get('/api/tickets', { headers: { authorization: `Bearer ${token}` } });

for (const c of CASES) {
  test(
    inLanguage(c.lang, `an operator makes an API token, sees it once, uses it and revokes it`),
    async ({ page }) => {
      await startIn(page, c.lang);
      await page.setViewportSize({ width: c.width, height: 900 });
      await signIn(page, OPERATOR, 'backoffice', { locale: c.lang, to: '/api-tokens/create' });
      const name = `Koppeling ${c.lang} ${Date.now()}`;
      await page.getByRole('textbox', { name: c.name }).fill(name);
      const scopes = page.getByRole('combobox', { name: c.scopes });
      await scopes.click();
      await scopes.fill('tenant.tickets.index');
      await page.getByRole('option', { name: 'tenant.tickets.index', exact: true }).click();
      await page.keyboard.press('Escape');
      await expectAccessible(page, `new API token form, ${c.lang}, ${c.width} px`);
      await page.getByRole('button', { name: c.create }).click();

      // Shown once, with the warning and a copy button.
      const field = page.getByTestId('new-api-token');
      await expect(field).toHaveValue(/^sdk_[A-Za-z0-9_-]{43}$/);
      const token = await field.inputValue();
      await expect(page.getByText(c.once)).toBeVisible();
      await expect(page.getByRole('button', { name: c.copy })).toBeVisible();
      await shot(page, `created-${c.lang}-${c.width}`);
      await expectAccessible(page, `new API token shown, ${c.lang}, ${c.width} px`);

      // An integration calls with it while the operator stays signed in here.
      const call = await ticketsWith(page, token);
      expect(call.status()).toBe(200);

      await page.getByRole('button', { name: c.done }).click();
      await expect(page).toHaveURL(/\/api-tokens$/);
      await expect(page.getByRole('heading', { level: 1, name: c.heading })).toBeVisible();
      const entry = page.getByText(name).first();
      await expect(entry).toBeVisible();
      await shot(page, `list-${c.lang}-${c.width}`);
      await expectAccessible(page, `API tokens list, ${c.lang}, ${c.width} px`);

      // Its detail never shows the token again; revoking it ends it at once.
      await entry.click();
      await expect(page.getByRole('button', { name: c.revoke })).toBeVisible();
      expect(await page.content()).not.toContain(token);
      await page.getByRole('button', { name: c.revoke }).click();
      await page.getByRole('dialog').getByRole('button', { name: c.revoke }).click();
      await expect(page.getByRole('status').filter({ hasText: c.revoked })).toBeVisible();
      await shot(page, `revoked-${c.lang}-${c.width}`);
      await expectAccessible(page, `revoked API token, ${c.lang}, ${c.width} px`);
      expect((await ticketsWith(page, token)).status()).toBe(401);
    },
  );
}
