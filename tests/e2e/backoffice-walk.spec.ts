/**
 * Issue 6: an operator walks every resource of the back office, from the schemas: its list opens with
 * its title and counter (or its empty text), and the first row opens its detail with the record's
 * title. axe-core scans one list, one detail and one create form (the screen types); every screen of
 * a type is the same generic screen.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { registry } from '../../server/schema/registry.ts';
import { expectAccessible, firstRecordRow, signIn, openFirstRecord } from './support.ts';

const reg = registry();
/** Resources with a list in the back office (their schema offers index). */
const listed = [...reg.resources.values()].filter((r) => r.actions.includes('index')).map((r) => r.name);

// The walk is the longest test of the suite: in parts, side by side on the workers. The file's other
// tests neither read nor write what a part does (the reorder test changes priorities' order only).
test.describe.configure({ mode: 'parallel' });
const PARTS = 3;
const parts = Array.from({ length: PARTS }, (_, i) => listed.filter((_, j) => j % PARTS === i));

test('the back office lists every resource of the schemas', () => {
  expect(listed.length).toBeGreaterThan(30);
});

for (const [index, part] of parts.entries()) {
  test(`an operator opens every list and the detail of its first record (part ${index + 1} of ${PARTS}: ${part.join(', ')})`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await walk(page, part);
  });
}

/**
 * Opens `path` as the app's own links do: a history entry and the router told of it, no page load (the
 * app, its schemas and the signed-in user stay loaded, as for an operator who moves between screens).
 */
async function navigateInApp(page: Page, path: string) {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

async function walk(page: Page, names: string[]) {
  // The first list of the walk is the first page of the session; the others are opened inside the app.
  await signIn(page, 'admin@example.com', 'backoffice', { to: `/${names[0]}` });
  const heading = page.getByRole('heading', { level: 1 });
  const problems: string[] = [];
  let details = 0;
  for (const [i, name] of names.entries()) {
    if (i > 0) {
      // The screen before (a detail, or an empty list) is gone first: its counter or empty text must not
      // pass for this list's.
      const before = (await heading.first().textContent()) ?? '';
      await navigateInApp(page, `/${name}`);
      await expect(heading.first()).not.toHaveText(before, { timeout: 15_000 });
    }
    // The list is there when its counter or its empty text is.
    const counter = page.getByRole('status').filter({ hasText: /^\d+-\d+ van \d+$/ });
    const empty = page.getByText(/^Geen .* gevonden\.$/);
    try {
      await expect(counter.or(empty).first()).toBeVisible({ timeout: 15_000 });
    } catch {
      problems.push(`${name}: the list did not show`);
      continue;
    }
    const title = (await heading.first().textContent()) ?? '';
    if (!title.trim()) problems.push(`${name}: the list has no title`);
    if (await empty.count()) continue;
    if (!reg.require(name).actions.includes('show')) {
      // A list without a detail screen (a ticket's history): its rows are no links to a page refused.
      if ((await firstRecordRow(page).getAttribute('tabindex')) !== null)
        problems.push(`${name}: a row opens a detail the schema does not offer`);
      continue;
    }
    await openFirstRecord(page);
    try {
      await expect(heading.first()).toHaveText(/ - /, { timeout: 15_000 });
      details += 1;
    } catch {
      problems.push(`${name}: the first row did not open a detail (at ${page.url()})`);
    }
  }
  expect(problems).toEqual([]);
  // Most lists have demo records (as before the split: more than 25 details of some 33 lists).
  expect(details).toBeGreaterThan(names.length * 0.75);
}

test('the screen types pass axe: a list, a detail with tabs, a plain detail and a create form', async ({
  page,
}) => {
  await signIn(page, 'admin@example.com', 'backoffice', { to: '/products' });
  await expect(firstRecordRow(page)).toBeVisible();
  await expectAccessible(page, 'products list');
  await openFirstRecord(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/ - Product$/);
  await expectAccessible(page, 'product detail');
  await page.goto('/companies');
  await openFirstRecord(page);
  await expect(page.getByRole('tablist')).toBeVisible();
  await expectAccessible(page, 'company detail with tabs');
  await page.goto('/products/create');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectAccessible(page, 'product create form');
});

test('an operator changes the order of the priorities by dragging, and it is stored', async ({ page }) => {
  await signIn(page, 'admin@example.com', 'backoffice');
  await expect(page).toHaveURL(/\/tickets$/);
  const token = await page.evaluate(() => localStorage.getItem('APP_PORTAL_TOKEN'));
  const headers = { authorization: `Bearer ${token}` };
  const priorities = async () => {
    const res = await page.request.get(
      '/api/priorities?builder[0][orderBy][0]=order&builder[0][orderBy][1]=asc',
      { headers },
    );
    return (await res.json()).data as { id: number; label: string; order: number }[];
  };
  const ordered = async () => (await priorities()).map((p) => p.label);
  const start = await priorities();
  const before = start.map((p) => p.label);
  try {
    await page.goto('/priorities');
    await page.getByRole('button', { name: 'Volgorde wijzigen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Volgorde wijzigen' });
    await expect(dialog.getByRole('listitem')).toHaveCount(before.length);
    await expectAccessible(page, 'order dialog');
    /** Drags an item's handle with the mouse onto another item's place. */
    const move = async (name: string, onto: string) => {
      const from = (await dialog.getByRole('button', { name: `${name} verplaatsen` }).boundingBox())!;
      const to = (await dialog.getByRole('button', { name: `${onto} verplaatsen` }).boundingBox())!;
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      for (let i = 1; i <= 5; i += 1)
        await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + ((to.y - from.y) * i) / 5);
      await page.mouse.up();
    };

    await move(before[0]!, before[1]!);
    // The drop has landed (the list shows the new order) and its animation has ended before saving:
    // a click during the drop animation may not reach the button.
    await expect(dialog.getByRole('listitem').first()).toHaveText(before[1]!);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await dialog.getByRole('button', { name: 'Opslaan' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Volgorde opgeslagen.' })).toBeVisible();
    await expect.poll(ordered).toEqual([before[1], before[0], ...before.slice(2)]);
  } finally {
    // Back as it was, through the API (other tests read the priorities in their order): the drag
    // above is what this test is about, a second one would only test the mouse again.
    for (const { id, order } of start) {
      const res = await page.request.put(`/api/priorities/${id}`, { headers, data: { order } });
      expect(res.status()).toBe(200);
    }
  }
  expect(await ordered()).toEqual(before);
});
