/**
 * Issue 18, item 1: the back office starts on the operator's dashboard. An operator reads a figure,
 * opens it as the ticket list filtered to exactly those tickets, comes back and finds the figures
 * counted again; a first-line operator finds their own line marked as their team. axe-core at 1280 and
 * 375 px on the dashboard with the journey's own overdue ticket. Each test in one language (German and
 * English; the figures' wording in all three is asserted at its catalogue key in
 * tests/browser/journey-wording-records.test.ts).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  expectAccessible,
  firstRecordRow,
  forgetTicketListLayout,
  inLanguage,
  signIn,
  startIn,
} from './support.ts';

const ADMIN = 'admin@example.com';
const FIRST_LINE = 'operator@example.com';

const TEXTS = {
  de: {
    title: 'Dashboard',
    mine: 'Meine Tickets',
    firstLine: 'Erste Linie',
    overdue: 'Überfällig',
    open: 'Offen',
    ownTeam: '(Ihr Team)',
    counter: (n: number) => `1-${Math.min(n, 15)} von ${n}`,
  },
  en: {
    title: 'Dashboard',
    mine: 'My tickets',
    firstLine: 'First line',
    overdue: 'Overdue',
    open: 'Open',
    ownTeam: '(your team)',
    counter: (n: number) => `1-${Math.min(n, 15)} of ${n}`,
  },
} as const;

/** The figure of a row and column: its link and the number it shows. */
async function figure(page: Page, row: string, count: string) {
  const link = page.getByRole('link', { name: new RegExp(`^${row}, ${count}: \\d+\\.`) });
  await expect(link).toBeVisible();
  return { link, value: Number(await link.textContent()) };
}

/** A ticket of the signed-in operator, open, whose deadline was yesterday (overdue). */
async function makeOverdueTicket(page: Page, token: string, description: string) {
  const headers = { authorization: `Bearer ${token}` };
  const me = (await (await page.request.get('/api/auth/me', { headers })).json()) as { user: { id: number } };
  const res = await page.request.post('/api/tickets', {
    headers,
    data: {
      description,
      operator_id: me.user.id,
      deadline: new Date(Date.now() - 24 * 3600 * 1000).toISOString(),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

// A figure's filter stays as the operator's own ticket list layout (kept on the server too): the specs
// after this one on the worker's server find the ticket lists of both operators as the demo left them.
// The admin may manage operators, so may remove the first line's layout as well as their own.
test.afterEach(async ({ request }) => {
  await forgetTicketListLayout(request, [ADMIN, FIRST_LINE]);
});

test(
  inLanguage(
    'de',
    'an operator opens a figure as the filtered ticket list and finds it counted again on return',
  ),
  async ({ page }) => {
    const lang = 'de';
    const t = TEXTS[lang];
    await startIn(page, lang);
    const token = await signIn(page, ADMIN, 'backoffice', { to: '/' });
    await makeOverdueTicket(page, token, `Dashboard e2e ${lang}`);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
    const overdue = await figure(page, t.mine, t.overdue);
    expect(overdue.value).toBeGreaterThan(0);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      // The layout (sidebar or drawer) is chosen at load, as on a phone.
      await page.reload();
      await expect(overdue.link).toBeVisible();
      await expectAccessible(page, `dashboard, ${width} px, ${lang}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();

    // The figure is a link: the list opens with exactly those tickets, the filter in its header.
    await overdue.link.click();
    await expect(page).toHaveURL(/\/tickets$/);
    await expect(page.getByText(t.counter(overdue.value), { exact: true })).toBeVisible();
    await expect(page.getByRole('cell', { name: `Dashboard e2e ${lang}` })).toBeVisible();

    // Another ticket of mine, then back: the dashboard counts again.
    const open = await (async () => {
      await page.goBack();
      return figure(page, t.mine, t.open);
    })();
    await makeOverdueTicket(page, token, `Dashboard e2e ${lang} 2`);
    await page.getByRole('menuitem', { name: 'Tickets', exact: true }).click();
    await expect(page).toHaveURL(/\/tickets$/);
    // The list is on screen, so the dashboard was left: the address changes at the click, but a route
    // still loading keeps the old screen mounted, and the menu's dashboard then finds it never gone.
    await expect(page.getByRole('heading', { level: 1, name: 'Tickets' })).toBeVisible();
    await expect(firstRecordRow(page)).toBeVisible();
    await page.getByRole('menuitem', { name: t.title, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
    await expect(
      page.getByRole('link', { name: new RegExp(`^${t.mine}, ${t.open}: ${open.value + 1}\\.`) }),
    ).toBeVisible();
    await expect(
      page.getByRole('link', { name: new RegExp(`^${t.mine}, ${t.overdue}: ${overdue.value + 1}\\.`) }),
    ).toBeVisible();
  },
);

test(
  inLanguage('en', 'a first-line operator lands on the dashboard with the first line marked as their team'),
  async ({ page }) => {
    await startIn(page, 'en');
    const token = await signIn(page, FIRST_LINE, 'backoffice', { to: '/' });
    await makeOverdueTicket(page, token, 'Dashboard e2e first line');
    await page.reload();
    const t = TEXTS.en;
    await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
    await expect(page.getByRole('rowheader', { name: `${t.firstLine} ${t.ownTeam}` })).toBeVisible();
    await expect(page.getByText(t.ownTeam)).toHaveCount(1);
    // Their own figures are theirs: the open figure opens a list of exactly their open tickets.
    const open = await figure(page, t.mine, t.open);
    expect(open.value).toBeGreaterThan(0);
    await open.link.click();
    await expect(page).toHaveURL(/\/tickets$/);
    await expect(page.getByText(t.counter(open.value), { exact: true })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Dashboard e2e first line' })).toBeVisible();
  },
);
