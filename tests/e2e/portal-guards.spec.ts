/**
 * The portal's route guards (SPEC 2, in order) and its sign-in screens, against the demo server: no
 * session → login; a quote link's token stored, taken out of the address, and a refused one → login;
 * a stored token whose user cannot be loaded → login with the session cleared; a route the client
 * holds no permission for → 'Access denied' with `r`; an unknown path → 'Page not found'; a status
 * that says setup is not completed or the trial has ended (answered by the test) → setup page / login;
 * an unknown subdomain → the not-found address with `d`. Login failure, password reset request (the
 * same answer for a known and an unknown address), the reset form's own checks, and a failed single
 * sign-on. axe-core on each page, desktop and 375 px, in Dutch, and one page in English; not on the
 * plain login page, which the translation sweep scans at both widths.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn, storeSession } from './support.ts';

const CLIENT = 'client@example.com';

/** What GET /api/system/status answers for the demo tenant; two tests answer it themselves, changed. */
const DEMO_STATUS = { setup_completed: true, trial_ends_in: null, tenant_name: 'Acme IT', tenant: 'acme' };

/** axe at the desktop size and at 375 px. */
async function expectAccessibleBothSizes(page: Page, where: string) {
  await expectAccessible(page, `${where} (desktop)`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectAccessible(page, `${where} (375 px)`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

const storedToken = (page: Page, key: string) => page.evaluate((k) => localStorage.getItem(k), key);

test.describe('portal route guards', () => {
  test('(3) without a token the portal goes to login', async ({ page }) => {
    await page.goto('/app/tickets');
    await expect(page).toHaveURL(/\/app\/login\?next=\/tickets$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Wachtwoord vergeten?' })).toBeVisible();
  });

  test('(2) a token in the query is stored, removed from the address, and a refused one ends at login', async ({
    page,
  }) => {
    const sent: { token: string | undefined; page: string | undefined }[] = [];
    page.on('request', (request) => {
      if (/\/api\/quotes\/\d+/.test(request.url())) {
        const headers = request.headers();
        sent.push({ token: headers['x-quote-token'], page: headers['x-current-page'] });
      }
    });
    await page.goto('/app/quotes/1?token=junk-token');
    await expect(page).toHaveURL(/\/app\/login\?next=\/quotes\/1$/);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent[0]!.token).toBe('junk-token');
    // The address the quote was asked from no longer carries the token.
    expect(sent[0]!.page).toMatch(/\/app\/quotes\/1$/);
    expect(await storedToken(page, 'APP_QUOTE_TOKEN')).toBeNull();
  });

  test('(4) a route the client holds no permission for opens Access denied with r', async ({ page }) => {
    await signIn(page, CLIENT, 'portal', { to: '/app/deals' });
    const me = await page.evaluate(async () => {
      const res = await fetch('/api/auth/me', {
        headers: { authorization: `Bearer ${localStorage.getItem('APP_PORTAL_TOKEN')}` },
      });
      return ((await res.json()) as { user: { permissions_names: string[] } }).user.permissions_names;
    });
    expect(me).toContain('portal.tickets.index');
    expect(me).not.toContain('portal.deals.index');

    await expect(page).toHaveURL(/\/app\/403\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('r')).toBe('deals.index');
    expect(url.searchParams.get('path')).toBe('/app/deals');
    await expect(page.getByRole('heading', { level: 1, name: 'Geen toegang' })).toBeVisible();
    await expect(page.getByText('/app/deals')).toBeVisible();
    await expectAccessibleBothSizes(page, '403');

    await page.getByRole('link', { name: 'Terug naar de tickets' }).click();
    await expect(page).toHaveURL(/\/app\/tickets$/);
  });

  test('the 403 page in English', async ({ page }) => {
    await signIn(page, CLIENT, 'portal', { to: '/app/slas/3', locale: 'en' });
    await expect(page).toHaveURL(/r=slas\.show/);
    await expect(page.getByRole('heading', { level: 1, name: 'Access denied' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to the tickets' })).toBeVisible();
    await expectAccessible(page, '403 in English');
  });

  test('an unknown path shows Page not found', async ({ page }) => {
    await signIn(page, CLIENT, 'portal', { to: '/app/no-such-page/at-all' });
    await expect(page.getByRole('heading', { level: 1, name: 'Pagina niet gevonden' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Terug naar de tickets' })).toBeVisible();
    await expectAccessibleBothSizes(page, '404');
  });

  test('(5) a user that cannot be loaded is logged out and sent to login', async ({ page }) => {
    await page.addInitScript(() => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('APP_PORTAL_TOKEN', 'not-a-valid-token');
        sessionStorage.setItem('seeded', '1');
      }
    });
    await page.goto('/app/tickets');
    await expect(page).toHaveURL(/\/app\/login\?next=\/tickets$/);
    expect(await storedToken(page, 'APP_PORTAL_TOKEN')).toBeNull();
  });

  test('(1) setup not completed goes to the setup page', async ({ page }) => {
    await page.route('**/api/system/status', (route) =>
      route.fulfill({ json: { ...DEMO_STATUS, setup_completed: false } }),
    );
    await page.goto('/app/tickets');
    await expect(page).toHaveURL(/\/app\/setup$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Installatie' })).toBeVisible();
    await expect(page.getByText('Dit portal wordt ingericht.')).toBeVisible();
    await expectAccessibleBothSizes(page, 'setup');
  });

  test('(3) an ended trial goes to login', async ({ page }) => {
    await storeSession(page, CLIENT);
    await page.route('**/api/system/status', (route) =>
      route.fulfill({ json: { ...DEMO_STATUS, trial_ends_in: -1 } }),
    );
    await page.goto('/app/tickets');
    await expect(page).toHaveURL(/\/app\/login$/);
    await expect(page.getByRole('alert')).toHaveText('De proefperiode is afgelopen.');
  });

  test('(6) an unknown portal goes to the not-found address with d', async ({ page, baseURL }) => {
    const port = new URL(baseURL!).port;
    await page.goto(`http://nosuchportal.localhost:${port}/app/tickets`);
    await expect(page).toHaveURL(/\/app\/not-found\?d=nosuchportal$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Portal niet gevonden' })).toBeVisible();
    await expectAccessibleBothSizes(page, 'portal not found');
  });
});

test.describe('portal sign-in screens', () => {
  test('a failed login says why', async ({ page }) => {
    await page.goto('/app/login');
    await page.getByLabel(/e-mail/i).fill(CLIENT);
    await page.getByLabel(/wachtwoord/i).fill('wrong password');
    await page.getByRole('button', { name: 'Inloggen' }).click();
    await expect(page.getByRole('alert')).toHaveText('Onjuist e-mailadres of wachtwoord.');
    await expect(page).toHaveURL(/\/app\/login$/);
    await expectAccessible(page, 'login failure');
  });

  test('a password reset request answers the same for a known and an unknown address', async ({ page }) => {
    await page.goto('/app/login');
    await page.getByRole('link', { name: 'Wachtwoord vergeten?' }).click();
    await expect(page).toHaveURL(/\/app\/password-reset$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Wachtwoord herstellen' })).toBeVisible();
    await expectAccessibleBothSizes(page, 'password reset request');

    const answers: string[] = [];
    for (const email of [CLIENT, 'nobody-at-all@example.com']) {
      await page.getByLabel(/e-mail/i).fill(email);
      await page.getByRole('button', { name: 'Link versturen' }).click();
      const answer = page.getByRole('status');
      await expect(answer).toBeVisible();
      answers.push((await answer.textContent()) ?? '');
    }
    expect(answers[0]).toBe(answers[1]);
    expect(answers[0]).toContain('Als dit e-mailadres bij ons bekend is');
    await expectAccessible(page, 'password reset request answered');
  });

  test('the new password form checks length and confirmation, and shows the server refusal', async ({
    page,
  }) => {
    await page.goto('/app/password/reset/not-a-real-token');
    await expect(page.getByRole('heading', { level: 1, name: 'Wachtwoord herstellen' })).toBeVisible();
    await expectAccessibleBothSizes(page, 'password reset');

    await page.getByLabel('Nieuw wachtwoord', { exact: false }).first().fill('short');
    await page.getByLabel('Herhaal nieuw wachtwoord').fill('other');
    await page.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
    await expect(page.getByText(/Het wachtwoord moet minimaal 8 tekens lang zijn\./)).toBeVisible();
    await expect(page.getByText('De wachtwoorden komen niet overeen.')).toBeVisible();
    await expectAccessible(page, 'password reset with errors');

    await page.getByLabel('Nieuw wachtwoord', { exact: false }).first().fill('long enough 123');
    await page.getByLabel('Herhaal nieuw wachtwoord').fill('long enough 123');
    await page.getByRole('button', { name: 'Wachtwoord opslaan' }).click();
    await expect(page.getByRole('alert')).toContainText(
      'Deze link is ongeldig of verlopen. Vraag een nieuwe aan.',
    );
  });

  test('a failed single sign-on goes back to login with a message', async ({ page }) => {
    await page.goto('/app/msgraph/code/not-a-real-code');
    await expect(page).toHaveURL(/\/app\/login$/);
    await expect(page.getByRole('alert')).toHaveText(
      'Inloggen via single sign-on is mislukt. Log opnieuw in.',
    );
    // Single sign-on is not configured on the demo server: no Microsoft button.
    await expect(page.getByRole('link', { name: 'Inloggen met Microsoft' })).toHaveCount(0);
  });

  test('the Microsoft button appears when single sign-on is configured', async ({ page }) => {
    const authorize = 'https://login.example.test/authorize?client_id=x';
    await page.route('**/api/auth/sso', (route) =>
      route.fulfill({ json: { enabled: true, authorize_url: authorize } }),
    );
    await page.goto('/app/login');
    const button = page.getByRole('link', { name: 'Inloggen met Microsoft' });
    await expect(button).toHaveAttribute('href', authorize);
    await expectAccessibleBothSizes(page, 'login with single sign-on');
  });
});
