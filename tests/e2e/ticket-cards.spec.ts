/**
 * The ticket list on a phone (375 px, issue 18 items 3 and 8): its cards can be ticked and changed in
 * bulk as the desktop table's rows, the bulk bar fits the screen, and j/k move the focus through the
 * cards, Enter opening the focused one. The tickets are the test's own; the list is opened through a
 * link with their filter, and the admin's ticket list layout that this keeps is removed afterwards, so
 * the next specs on the worker's server find it as the demo has it.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { api, expectAccessible, storeSession } from './support.ts';

const ADMIN = 'admin@example.com';

/** `count` new tickets of Jansen BV whose description starts with `mark`: their ids and references. */
async function newTickets(page: Page, token: string, mark: string, count: number) {
  const companies = await api(
    page,
    token,
    'GET',
    '/companies?builder[0][where][0]=name&builder[0][where][1]==&builder[0][where][2]=Jansen BV',
  );
  const made: { id: number; reference: string }[] = [];
  for (let i = 1; i <= count; i++) {
    const ticket = await api(page, token, 'POST', '/tickets', {
      description: `${mark} ${i}`,
      company_id: companies.data[0].id,
    });
    made.push({ id: Number(ticket.id), reference: String(ticket.reference) });
  }
  return made;
}

/** Which card (by its place among the cards) has the focus; -1 when none has. */
const focusedCard = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll('[data-shortcut-row]')).findIndex(
      (card) => card === document.activeElement,
    ),
  );

test.afterEach(async ({ request }) => {
  const login = await request.post('/api/auth/login', { data: { username: ADMIN, password: 'demo' } });
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` };
  const where = (field: string, value: string | number, i: number) =>
    `builder[${i}][where][0]=${field}&builder[${i}][where][1]==&builder[${i}][where][2]=${encodeURIComponent(value)}`;
  const operators = (await (
    await request.get(`/api/operators?${where('email', ADMIN, 0)}`, { headers })
  ).json()) as {
    data: { id: number }[];
  };
  expect(operators.data).toHaveLength(1);
  const query = `${where('name', 'list:tickets.index', 0)}&${where('user_id', operators.data[0]!.id, 1)}`;
  const configs = (await (await request.get(`/api/user-configs?${query}`, { headers })).json()) as {
    data: { id: number }[];
  };
  for (const { id } of configs.data) {
    const res = await request.delete(`/api/user-configs/${id}`, { headers });
    expect(res.ok(), await res.text()).toBe(true);
  }
});

test('on a phone an operator ticks two cards, sets their priority in bulk and walks the cards with j and k', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const token = await storeSession(page, ADMIN);
  const mark = `Kaartenbulk ${Date.now()}`;
  const [one, two, three] = await newTickets(page, token, mark, 3);
  await page.goto(`/tickets?filter=${encodeURIComponent(JSON.stringify({ description: mark }))}`);

  const cardBox = (reference: string) => page.getByRole('checkbox', { name: `${reference} selecteren` });
  for (const t of [one!, two!, three!]) await expect(cardBox(t.reference)).toBeVisible();
  await expect(page.locator('[data-shortcut-row]')).toHaveCount(3);
  const bar = page.getByRole('toolbar', { name: 'Acties voor de geselecteerde rijen' });
  // Nothing selected, no bar (issue 37, item 5).
  await expect(bar).toHaveCount(0);

  await cardBox(one!.reference).check();
  await cardBox(two!.reference).check();
  // Ticking a card does not open it.
  await expect(page).toHaveURL(/\/tickets\?|\/tickets$/);
  await expect(bar).toContainText('2 geselecteerd');
  await expect(page.getByRole('checkbox', { name: 'Alles op deze pagina selecteren' })).not.toBeChecked();
  // The bar fits the phone: nothing sticks out sideways, its controls are on the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  for (const control of [
    bar.getByRole('combobox', { name: 'Prioriteit' }),
    bar.getByRole('combobox', { name: 'Operator' }),
    bar.getByRole('button', { name: 'Sluiten' }),
  ]) {
    const box = (await control.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
  }
  await expectAccessible(page, 'ticket cards with a selection, 375 px');

  await bar.getByRole('combobox', { name: 'Prioriteit' }).click();
  await page.getByRole('option', { name: 'Hoog', exact: true }).click();
  const toast = page.getByRole('status').filter({ hasText: '2 tickets gewijzigd' });
  await expect(toast).toBeVisible();
  await toast.getByRole('button').click();
  await expect(toast).toHaveCount(0);
  await expect(bar).toHaveCount(0);
  const priorities = async () =>
    Object.fromEntries(
      await Promise.all(
        [one!, two!, three!].map(async (t) => {
          const ticket = await api(page, token, 'GET', `/tickets/${t.id}?with[]=priority`);
          return [t.reference, ticket.priority?.label ?? null];
        }),
      ),
    );
  expect(await priorities()).toEqual({
    [one!.reference]: 'Hoog',
    [two!.reference]: 'Hoog',
    [three!.reference]: null,
  });

  // Select all of the page, then none again.
  const all = page.getByRole('checkbox', { name: 'Alles op deze pagina selecteren' });
  await all.check();
  await expect(bar).toContainText('3 geselecteerd');
  await all.uncheck();
  await expect(bar).toHaveCount(0);

  // j and k: nothing focused yet, j takes the first card, then the next; k goes back.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('j');
  await expect.poll(() => focusedCard(page)).toBe(0);
  await page.keyboard.press('j');
  await expect.poll(() => focusedCard(page)).toBe(1);
  await page.keyboard.press('j');
  await expect.poll(() => focusedCard(page)).toBe(2);
  await page.keyboard.press('k');
  await expect.poll(() => focusedCard(page)).toBe(1);
  await expectAccessible(page, 'ticket cards, a card focused by j, 375 px');

  // Enter opens the focused card.
  const reference = await page.evaluate(() => document.activeElement?.querySelector('h2')?.textContent ?? '');
  const opened = [one!, two!, three!].find((t) => t.reference === reference);
  expect(opened, `the focused card names ${reference}`).toBeDefined();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/tickets/${opened!.id}(/show)?$`));

  // The history of a changed ticket tells the bulk change.
  await page.goto(`/tickets/${one!.id}`);
  await page.getByRole('tab', { name: /^Geschiedenis/ }).click();
  const rows = page.getByRole('tabpanel').getByRole('row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('Prioriteit');
  await expect(rows.nth(1)).toContainText('Hoog');
  await expect(rows.nth(1)).toContainText('Sanne Bakker');
});
