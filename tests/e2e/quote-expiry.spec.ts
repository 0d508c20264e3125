/**
 * A quote past its validity date, in both apps, in Dutch (issue 31; common/quote-validity.ts): the portal
 * shows it as expired with its validity date, and says so where the acceptance form would be; the back
 * office shows it expired, offers neither send nor accept, and an operator who changes "Geldig tot"
 * through Edit extends it, after which both come back. axe-core scans each screen. The quote is made for
 * this file and removed after it: the other files on this server pick the client's sent quotes.
 */
import type { APIRequestContext } from '@playwright/test';
import { validityToday } from '../../common/quote-validity.ts';
import { expect, test } from './fixtures.ts';
import { DEMO_PASSWORD, expectAccessible, signIn, startWithEmptyStorage } from './support.ts';

/** The day `days` days from today in Amsterdam, as a validity date is written. */
function dayFromToday(days: number): string {
  const [y, m, d] = validityToday().split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/** 'DD MMM YY' in Dutch, as the apps show a date (SPEC 9). */
function dutchDate(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  const month = ['jan', 'feb', 'mrt', 'apr', 'mei', 'jun', 'jul', 'aug', 'sep', 'okt', 'nov', 'dec'][m! - 1];
  return `${String(d).padStart(2, '0')} ${month} ${String(y! % 100).padStart(2, '0')}`;
}

const EXPIRED_ON = dayFromToday(-3);
let quote: { id: number; name: string } | undefined;

async function adminHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const res = await request.post('/api/auth/login', {
    data: { username: 'admin@example.com', password: DEMO_PASSWORD },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return { authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
}

test.describe('a quote past its validity date', () => {
  test.beforeAll(async ({ request }) => {
    const headers = await adminHeaders(request);
    const quotes = (await (
      await request.get('/api/quotes?with[0]=company&builder[0][paginate]=100', { headers })
    ).json()) as { data: { company_id: number; client_id: number | null; company?: { name: string } }[] };
    const model = quotes.data.find((q) => q.company?.name === 'Jansen BV' && q.client_id);
    expect(model, 'a quote of Jansen BV with a client in the demo data').toBeTruthy();
    const name = `Verlopen offerte ${Date.now()}`;
    const res = await request.post('/api/quotes', {
      headers,
      data: {
        name,
        company_id: model!.company_id,
        client_id: model!.client_id,
        status_id: 2,
        valid_until: EXPIRED_ON,
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
    quote = { id: ((await res.json()) as { id: number }).id, name };
  });

  test.afterAll(async ({ request }) => {
    if (!quote) return;
    const res = await request.delete(`/api/quotes/${quote.id}`, { headers: await adminHeaders(request) });
    expect(res.ok(), await res.text()).toBe(true);
  });

  test.beforeEach(async ({ page }) => {
    await startWithEmptyStorage(page);
  });

  test('the portal shows it expired, and no acceptance form', async ({ page }) => {
    await signIn(page, 'client@example.com', 'portal', { to: `/app/quotes/${quote!.id}` });
    await expect(page.getByRole('heading', { level: 1, name: `${quote!.name} - Offerte` })).toBeVisible();
    const badge = page.locator('[data-badge="validity:red"]');
    await expect(badge).toContainText(dutchDate(EXPIRED_ON));
    await expect(badge).toContainText('Verlopen');
    await expect(page.getByRole('status').filter({ hasText: 'Deze offerte was geldig tot' })).toHaveText(
      `Deze offerte was geldig tot ${dutchDate(EXPIRED_ON)} en kan niet meer worden geaccepteerd. ` +
        'Neem contact met ons op als je haar wilt laten verlengen.',
    );
    await expect(page.getByRole('heading', { name: 'Offerte accepteren' })).toHaveCount(0);
    await expect(page.getByTestId('signature-pad')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Offerte accepteren' })).toHaveCount(0);
    await expectAccessible(page, 'expired quote in the portal');
  });

  test('the back office shows it expired without send or accept; extending it brings them back', async ({
    page,
  }) => {
    await signIn(page, 'admin@example.com', 'backoffice', { to: `/quotes/${quote!.id}` });
    await expect(page.getByRole('heading', { level: 1, name: `${quote!.name} - Offerte` })).toBeVisible();
    const notice = page.getByRole('status').filter({ hasText: 'Verlopen: geldig tot' });
    await expect(notice).toHaveText(
      `Verlopen: geldig tot ${dutchDate(EXPIRED_ON)}. Pas "Geldig tot" aan (Bewerken) om haar te ` +
        'verlengen; tot dan kan ze niet worden verstuurd of geaccepteerd.',
    );
    await expect(page.locator('[data-badge="validity:red"]')).toContainText('Verlopen');
    await expect(page.getByRole('button', { name: 'Afwijzen' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Opnieuw versturen' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Offerte accepteren' })).toHaveCount(0);
    await expectAccessible(page, 'expired quote in the back office');

    await page.getByRole('button', { name: 'Bewerken' }).click();
    // The form holds the stored date once it has loaded the record: a date typed before would be reset.
    const validUntil = page.getByLabel('Geldig tot');
    await expect(validUntil).toHaveValue(EXPIRED_ON);
    await validUntil.fill(dayFromToday(14));
    await expect(page.getByRole('button', { name: 'Opslaan' })).toBeEnabled();
    await page.getByRole('button', { name: 'Opslaan' }).click();
    await expect(notice).toHaveCount(0);
    await expect(page.locator('[data-badge="validity:red"]')).toHaveCount(0);
    await expect(page.getByText(dutchDate(dayFromToday(14)))).toBeVisible();
    await expect(page.getByRole('button', { name: 'Opnieuw versturen' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Offerte accepteren' })).toBeVisible();
  });
});
