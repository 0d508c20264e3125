/**
 * The calls clients make in the portal, reachable from the back office too (issue 6): an operator takes
 * the client's signature on a sent quote (SPEC 7 accept) and tops up a prepaid contract (SPEC 7 buy),
 * each in a dialog holding the portal's form. Records of De Vries Installaties, so the portal tests of
 * Jansen BV keep theirs.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, sign, storeSession } from './support.ts';

/** The API as the signed-in operator: the bearer token the app stores (storeSession's). */
async function api(page: Page, token: string, path: string) {
  const res = await page.request.get(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

test('an operator accepts a sent quote with the client signing on screen', async ({ page }) => {
  const token = await storeSession(page, 'admin@example.com');
  const sent = await api(
    page,
    token,
    '/quotes?builder[0][where][0]=status_id&builder[0][where][1]==&builder[0][where][2]=2' +
      '&builder[1][paginate]=100&with[0]=deal.client&with[1]=deal.company',
  );
  const quote = (sent.data as any[]).find((q) => q.deal?.company?.name === 'De Vries Installaties');
  expect(quote, 'a sent quote of De Vries Installaties').toBeTruthy();

  await page.goto(`/quotes/${quote.id}`);
  await page.getByRole('button', { name: 'Offerte accepteren' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('textbox', { name: 'Naam' })).toHaveValue(quote.deal.client.full_name);
  await expectAccessible(page, 'back-office accept dialog');
  await sign(page);
  await dialog.getByRole('button', { name: 'Offerte accepteren' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'De offerte is geaccepteerd.' })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  expect(Number((await api(page, token, `/quotes/${quote.id}`)).status_id)).toBe(3);
  // Accepted: no accept button any more.
  await expect(page.getByRole('button', { name: 'Offerte accepteren' })).toHaveCount(0);
});

test('an operator tops up a prepaid contract with a prepaid card', async ({ page }) => {
  const token = await storeSession(page, 'admin@example.com');
  const contracts = await api(
    page,
    token,
    '/contracts?builder[0][where][0]=period&builder[0][where][1]==&builder[0][where][2]=none' +
      '&builder[1][paginate]=100&with[0]=companies',
  );
  const contract = (contracts.data as any[]).find((c) =>
    c.companies?.some((co: any) => co.name === 'De Vries Installaties'),
  );
  expect(contract, 'a prepaid contract of De Vries Installaties').toBeTruthy();
  const cards = (await api(page, token, '/prepaid-cards?builder[0][paginate]=100')).data as any[];
  const card = cards[0];

  await page.goto(`/contracts/${contract.id}`);
  await page.getByRole('button', { name: 'Opwaarderen' }).click();
  const dialog = page.getByRole('dialog');
  const submit = dialog.getByRole('button', { name: 'Opwaarderen' });
  await expect(submit).toBeDisabled();
  await dialog.getByRole('radio').first().check();
  await expectAccessible(page, 'back-office prepaid upgrade dialog');
  await submit.click();
  await expect(page.getByRole('status').filter({ hasText: 'Strippenkaart opgewaardeerd' })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const after = await api(page, token, `/contracts/${contract.id}`);
  expect(Number(after.minutes_remaining)).toBe(Number(contract.minutes_remaining) + Number(card.hours) * 60);
});
