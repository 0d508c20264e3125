/**
 * Issue 37, item 4: a ticket's checklist in both apps. In the back office an operator adds an item and
 * ticks one, and the card says who ticked it and when; closing with a required item open is refused with
 * the reason, and second line is offered to close anyway. In the portal the client sees the items shown
 * to clients only and ticks one. Dutch and English, at 1280 and 375 px, axe-clean. Each test makes its
 * own ticket of the client's company through the API.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, inLanguage, signIn, startIn } from './support.ts';

const ADMIN = 'admin@example.com';
const CLIENT = 'client@example.com';

const TEXT = {
  nl: {
    title: 'Checklist',
    newItem: 'Nieuw checklistpunt',
    add: 'Toevoegen',
    doneBy: /Afgevinkt door .+ op /,
    progress: (done: number, total: number) => `${done} van ${total} afgevinkt`,
    close: 'Sluiten',
    refusal: /Er staan nog verplichte checklistpunten open: 1\./,
    closeAnyway: 'Toch sluiten',
  },
  en: {
    title: 'Checklist',
    newItem: 'New checklist item',
    add: 'Add',
    doneBy: /Done by .+ on /,
    progress: (done: number, total: number) => `${done} of ${total} done`,
    close: 'Close',
    refusal: /Required checklist items are still open: 1\./,
    closeAnyway: 'Close anyway',
  },
} as const;

async function tokenOf(request: APIRequestContext, email: string) {
  const auth = await request.post('/api/auth/login', { data: { username: email, password: 'demo' } });
  expect(auth.ok()).toBe(true);
  return (await auth.json()).access_token as string;
}

/** A ticket of the client's company with a required item shown to the client and a hidden one. */
async function checklistTicket(request: APIRequestContext) {
  const call = async (token: string, method: string, path: string, data?: object) => {
    const res = await request.fetch(`/api/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
      ...(data ? { data } : {}),
    });
    expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return res.json();
  };
  const company = (await call(await tokenOf(request, CLIENT), 'GET', 'companies')).data[0];
  const admin = await tokenOf(request, ADMIN);
  const stamp = Date.now();
  const ticket = await call(admin, 'POST', 'tickets', {
    description: `Patchdag ${stamp}`,
    company_id: company.id,
  });
  const item = (text: string, position: number, required: boolean, visible: boolean) =>
    call(admin, 'POST', 'checklist-items', {
      ticket_id: ticket.id,
      text,
      position,
      required,
      visible_to_client: visible,
    });
  await item('Updates installeren', 1, true, true);
  await item('Back-up nagelopen', 2, false, false);
  return ticket.id as number;
}

const card = (page: Page) => page.getByTestId('checklist');

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/checklists-${name}.png`, fullPage: true });
}

for (const [lang, width] of [
  ['nl', 1280],
  ['en', 375],
] as const) {
  test(
    inLanguage(lang, `the back office ticks a checklist at ${width} px and closes past it only when asked`),
    async ({ page }) => {
      const t = TEXT[lang];
      await page.setViewportSize({ width, height: 900 });
      await startIn(page, lang);
      const id = await checklistTicket(page.request);
      await signIn(page, ADMIN, 'backoffice', { to: `/tickets/${id}`, locale: lang });
      await expect(card(page).getByRole('heading', { name: t.title })).toBeVisible();
      await expect(card(page)).toContainText(t.progress(0, 2));

      await card(page).getByLabel(t.newItem).fill('Herstart gepland');
      await card(page).getByRole('button', { name: t.add }).click();
      await expect(card(page).getByRole('checkbox', { name: 'Herstart gepland' })).toBeVisible();
      await expect(card(page)).toContainText(t.progress(0, 3));

      await card(page)
        .getByRole('checkbox', { name: /Back-up nagelopen/ })
        .click();
      await expect(card(page).getByRole('checkbox', { name: /Back-up nagelopen/ })).toBeChecked();
      await expect(card(page)).toContainText(t.doneBy);
      await expect(card(page)).toContainText(t.progress(1, 3));
      await shoot(page, `backoffice-${lang}-${width}`);
      await expectAccessible(page, `checklist in the back office (${lang}, ${width} px)`);

      // The required item is open: the close is refused with the reason, and second line may override.
      const close = page.locator('button[aria-keyshortcuts="c"]'); // the header's Close, not a toast's
      await expect(close).toHaveText(t.close);
      await close.click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText(t.refusal);
      await expect(page.getByText(t.refusal).first()).toBeVisible();
      await expectAccessible(page, `the checklist's refusal (${lang}, ${width} px)`);
      await dialog.getByRole('button', { name: t.closeAnyway }).click();
      await expect(close).toHaveCount(0);
    },
  );
}

for (const [lang, width] of [
  ['en', 1280],
  ['nl', 375],
] as const) {
  test(
    inLanguage(lang, `the portal shows the client's items and ticks one at ${width} px`),
    async ({ page }) => {
      const t = TEXT[lang];
      await page.setViewportSize({ width, height: 900 });
      await startIn(page, lang);
      const id = await checklistTicket(page.request);
      await signIn(page, CLIENT, 'portal', { to: `/app/tickets/${id}`, locale: lang });
      await expect(card(page).getByRole('heading', { name: t.title })).toBeVisible();
      await expect(card(page).getByRole('checkbox')).toHaveCount(1);
      await expect(card(page)).not.toContainText('Back-up nagelopen');
      const item = card(page).getByRole('checkbox', { name: 'Updates installeren' });
      await item.click();
      await expect(item).toBeChecked();
      await expect(card(page)).toContainText(t.doneBy);
      await expect(card(page)).toContainText(t.progress(1, 1));
      await shoot(page, `portal-${lang}-${width}`);
      await expectAccessible(page, `checklist in the portal (${lang}, ${width} px)`);
    },
  );
}
