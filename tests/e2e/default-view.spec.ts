/**
 * Issue 18, item 4: the ticket list's default view. A first-line operator without a choice of their own
 * lands on 'My open tickets' (theirs, neither closed nor archived: the dashboard's figure); they pick
 * 'All tickets', make it their default, and after signing in again elsewhere (no layout of the list
 * kept there) the list starts on all tickets; 'Back to the standard view' returns to their open
 * tickets. In Dutch at 1280 px and English at 375 px, axe-core clean. The operator's configs are put
 * back as they were, for the specs after this one on the same server.
 */
import type { APIRequestContext, Browser } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn, startWithEmptyStorage, storeSession } from './support.ts';

const OPERATOR = 'operator@example.com';
const NAMES = ['list:tickets.index', 'view:tickets.index'];

async function token(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { username: OPERATOR, password: 'demo' } });
  expect(res.ok()).toBe(true);
  return (await res.json()).access_token;
}

async function configs(request: APIRequestContext, bearer: string): Promise<Record<string, unknown>> {
  const res = await request.get('/api/auth/me', { headers: { authorization: `Bearer ${bearer}` } });
  expect(res.ok()).toBe(true);
  const body = await res.json();
  const list = (body.user ?? body).configs as { name: string; value: unknown }[];
  return Object.fromEntries(list.filter((c) => NAMES.includes(c.name)).map((c) => [c.name, c.value]));
}

async function save(request: APIRequestContext, bearer: string, values: Record<string, unknown>) {
  const res = await request.post('/api/auth/me', {
    headers: { authorization: `Bearer ${bearer}` },
    data: { relationships: { configs: NAMES.map((name) => ({ name, value: values[name] ?? null })) } },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** The totals the list must show: the operator's open tickets (the dashboard's figure) and all tickets. */
async function totals(request: APIRequestContext, bearer: string) {
  const headers = { authorization: `Bearer ${bearer}` };
  const dashboard = await (await request.get('/api/dashboard', { headers })).json();
  const all = await (await request.get('/api/tickets?builder[0][paginate]=1', { headers })).json();
  const mine = dashboard.rows.find((r: { key: string }) => r.key === 'mine').counts.open as number;
  return { mine, all: all.total as number };
}

async function secondDevice(browser: Browser, baseURL: string) {
  const context = await browser.newContext({
    baseURL,
    locale: 'en-GB',
    viewport: { width: 375, height: 800 },
  });
  const page = await context.newPage();
  await startWithEmptyStorage(page);
  return { context, page };
}

test('an operator starts on their open tickets and makes all tickets their default view', async ({
  page,
  browser,
  baseURL,
}) => {
  await startWithEmptyStorage(page);
  const setup = await token(page.request);
  const before = await configs(page.request, setup);
  // No layout and no choice: the list as a new operator has it.
  await save(page.request, setup, {});
  try {
    const { mine, all } = await totals(page.request, setup);
    expect(mine).toBeGreaterThan(0);
    expect(all).toBeGreaterThan(mine);

    // One session per account: each login ends the one before, so the checks use the latest token.
    const first = await signIn(page, OPERATOR, 'backoffice', { to: '/tickets' });
    const view = page.getByRole('combobox', { name: /^Weergave\b/ });
    await expect(view).toHaveText('Mijn open tickets');
    await expect(page.getByText(`van ${mine}`, { exact: false }).first()).toBeVisible();
    await expect(page.getByText('Mijn standaardweergave')).toBeVisible();
    await expectAccessible(page, 'ticket list on my open tickets (nl, 1280)');

    await view.click();
    await page.getByRole('option', { name: 'Alle tickets' }).click();
    await expect(view).toHaveText('Alle tickets');
    await expect(page.getByText(`van ${all}`, { exact: false }).first()).toBeVisible();
    await page.getByRole('button', { name: 'Als mijn standaardweergave gebruiken' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'De lijst begint nu met deze weergave.' }),
    ).toBeVisible();
    await expect(page.getByText('Mijn standaardweergave')).toBeVisible();
    await expect(
      page.getByRole('button', { name: 'Terug naar de vaste standaard (Mijn open tickets)' }),
    ).toBeVisible();
    expect((await configs(page.request, first))['view:tickets.index']).toBe('system:all');

    // Elsewhere, with no layout of the list kept: the list starts on the chosen view.
    await save(page.request, first, { 'view:tickets.index': 'system:all' });
    const other = await secondDevice(browser, baseURL!);
    const second = await storeSession(other.page, OPERATOR, { locale: 'en' });
    await other.page.goto('/tickets');
    const otherView = other.page.getByRole('combobox', { name: /^View\b/ });
    await expect(otherView).toHaveText('All tickets');
    await expect(other.page.getByText('My default view')).toBeVisible();
    await expectAccessible(other.page, 'ticket list on all tickets (en, 375)');

    // Back to the standard: the operator's open tickets again, and no choice stored.
    await other.page.getByRole('button', { name: 'Back to the standard view (My open tickets)' }).click();
    await expect(otherView).toHaveText('My open tickets');
    await expect(other.page.getByRole('button', { name: /^Back to the standard view/ })).toHaveCount(0);
    await expect(other.page.getByText('My default view')).toBeVisible();
    expect((await configs(other.page.request, second))['view:tickets.index']).toBeNull();
    await other.context.close();
  } finally {
    await save(page.request, await token(page.request), before);
  }
});
