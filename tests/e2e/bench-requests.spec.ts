/**
 * The bench measures the calls the screens really send (issue 40): the real apps in Chromium, as an
 * operator and as the portal client, with every ticket call they make recorded, each compared with what
 * bench/app-requests.ts writes for the same screen. A screen that asks for another relation, sort or
 * page size fails this test until the bench asks for it too.
 */
import type { Page } from '@playwright/test';
import {
  globalSearchPath,
  ticketListPath,
  ticketRecordPath,
  ticketThreadPath,
} from '../../bench/app-requests.ts';
import { expect, test } from './fixtures.ts';
import {
  firstRecordRow,
  inLanguage,
  openFirstRecord,
  resetListLayouts,
  signIn,
  startWithEmptyStorage,
} from './support.ts';

/** Every API call the page makes from now on, as path plus query string, in order. */
function recordCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) calls.push(`${url.pathname}${url.search}`);
  });
  return calls;
}

/** The calls of `calls` that start with `prefix` (a path and `?`), from index `from` on. */
const callsTo = (calls: string[], prefix: string, from = 0) =>
  calls.slice(from).filter((c) => c.startsWith(prefix));

const status = (page: Page) => page.getByRole('status').filter({ hasText: / van \d+$/ });

test.beforeEach(async ({ page }) => {
  // The default layout: the lists keep a user's layout on the server, and specs share a server.
  await resetListLayouts(page.request, 'admin@example.com');
  await resetListLayouts(page.request, 'client@example.com');
  await startWithEmptyStorage(page);
});

// The reference sort is kept as the admin's layout: the next spec on this server starts from the default.
test.afterEach(async ({ page }) => {
  await resetListLayouts(page.request, 'admin@example.com');
});

test(inLanguage('nl', "the bench's back-office calls are the ones the screens send"), async ({ page }) => {
  const calls = recordCalls(page);
  await signIn(page, 'admin@example.com', 'backoffice');
  await expect(status(page)).toHaveText(/^1-15 van \d+$/);
  // The default list: its first (and only) list call.
  expect(callsTo(calls, '/api/tickets?')).toEqual([ticketListPath({ app: 'backoffice' })]);

  // Another page: the same call with the page number (the deep page is this at page 5,000).
  let from = calls.length;
  await page.getByRole('button', { name: 'Volgende pagina' }).click();
  await expect(status(page)).toHaveText(/^16-30 van \d+$/);
  expect(callsTo(calls, '/api/tickets?', from)).toEqual([ticketListPath({ app: 'backoffice', page: 2 })]);

  // Sorted by another column: the reference header's toggle, ascending, back to page 1.
  from = calls.length;
  const header = page.getByRole('columnheader', { name: /Referentie/ });
  await header.getByRole('button', { name: 'Referentie' }).click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(status(page)).toHaveText(/^1-15 van \d+$/);
  await expect.poll(() => callsTo(calls, '/api/tickets?', from).length).toBe(1);
  expect(callsTo(calls, '/api/tickets?', from)).toEqual([
    ticketListPath({ app: 'backoffice', sort: { field: 'reference', order: 'ASC' } }),
  ]);

  // The app bar's search, once the typing has settled.
  from = calls.length;
  const box = page.getByRole('combobox', { name: /^Zoek tickets/ });
  await box.fill('printer');
  await expect(page.getByRole('listbox', { name: 'Zoekresultaten' })).toBeVisible();
  expect(callsTo(calls, '/api/search?', from)).toEqual([globalSearchPath('printer')]);
  await page.keyboard.press('Escape');

  // A ticket with its thread: the record as the screen first reads it, and its messages.
  await expect(firstRecordRow(page)).toBeVisible();
  from = calls.length;
  await openFirstRecord(page);
  await expect(page).toHaveURL(/\/tickets\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split('/').pop());
  await expect.poll(() => callsTo(calls, '/api/messages?', from).length).toBe(1);
  expect(callsTo(calls, `/api/tickets/${id}?with[`, from)).toEqual([ticketRecordPath(id)]);
  expect(callsTo(calls, '/api/messages?', from)).toEqual([ticketThreadPath(id)]);
});

test(inLanguage('nl', "the bench's portal list is the one the portal sends"), async ({ page }) => {
  const calls = recordCalls(page);
  await signIn(page, 'client@example.com');
  await expect(status(page)).toHaveText(/^1-15 van \d+$/);
  expect(callsTo(calls, '/api/tickets?')).toEqual([ticketListPath({ app: 'portal' })]);
});
