/**
 * OpenID Connect single sign-on in the browser (issue 38, item 2): the login page's button per provider
 * takes the user through a real OpenID provider (`oidc-provider`, tests/oidc-provider.ts: its own login
 * form) and back signed in; an address no account has comes back to the login page with the generic
 * message. The back office in Dutch at 1280 px, the portal in English at 375 px, axe-clean.
 */
import type { Page } from '@playwright/test';
import { expect, test as base } from './fixtures.ts';
import { freePort, startServer, type E2eServer } from './server.ts';
import { expectAccessible, inLanguage, startIn, storeSession } from './support.ts';
import { startOidcProvider, type TestProvider } from '../oidc-provider.ts';

const PROVIDER_NAME = 'Test IdP';

interface Desk {
  server: E2eServer;
  idp: TestProvider;
}

/** A server that allows an issuer on loopback, with one provider for both apps configured by second line. */
const test = base.extend<object, { desk: Desk }>({
  desk: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const idp = await startOidcProvider([
        {
          client_id: 'desk-e2e',
          client_secret: 'e2e-idp-secret',
          redirect_uris: [`${origin}/sso/callback`, `${origin}/app/sso/callback`],
        },
      ]);
      const server = await startServer({ PUBLIC_URL: origin, SSO_ALLOW_PRIVATE_ISSUERS: 'true' }, { port });
      const login = await fetch(`${origin}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin@example.com', password: 'demo' }),
      });
      const { access_token: token } = (await login.json()) as { access_token: string };
      const stored = await fetch(`${origin}/api/sso-providers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          name: PROVIDER_NAME,
          issuer: idp.issuer,
          client_id: 'desk-e2e',
          client_secret: 'e2e-idp-secret',
          audience: 'both',
          email_domains: 'example.com',
        }),
      });
      expect(stored.status, await stored.text()).toBe(201);
      await use({ server, idp });
      await server.stop();
      await idp.close();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ desk }, use) => use(desk.server.baseURL),
});

/** The provider's own login form (its development interactions): any password, the name is the account. */
async function signInAtProvider(page: Page, email: string) {
  await expect(page).toHaveURL(/\/interaction\//);
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

const storedUser = (page: Page) => page.evaluate(() => localStorage.getItem('APP_USER'));

test.describe('single sign-on with an OpenID provider', () => {
  test(
    inLanguage('nl', 'the back office button signs an operator in through the provider'),
    async ({ page }) => {
      await startIn(page, 'nl');
      await page.goto('/login');
      const button = page.getByRole('button', { name: `Inloggen met ${PROVIDER_NAME}` });
      await expect(button).toBeVisible();
      await expectAccessible(page, 'back office login with the SSO button');
      await page.screenshot({ path: test.info().outputPath('login-nl-1280.png') });

      await button.click();
      await signInAtProvider(page, 'admin@example.com');
      await expect(page).not.toHaveURL(/\/(login|sso\/callback)/);
      await expect
        .poll(async () => JSON.parse((await storedUser(page)) ?? '{}').email)
        .toBe('admin@example.com');
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expectAccessible(page, 'back office after single sign-on');
    },
  );

  test(inLanguage('en', 'the portal button signs a client in on a phone'), async ({ page }) => {
    await startIn(page, 'en');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/app/login');
    const button = page.getByRole('button', { name: `Sign in with ${PROVIDER_NAME}` });
    await expect(button).toBeVisible();
    await expectAccessible(page, 'portal login with the SSO button at 375 px');
    await page.screenshot({ path: test.info().outputPath('login-en-375.png') });

    await button.click();
    await signInAtProvider(page, 'client@example.com');
    await expect(page).toHaveURL(/\/app\/tickets$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Tickets' })).toBeVisible();
    expect(JSON.parse((await storedUser(page))!).email).toBe('client@example.com');
    await expectAccessible(page, 'portal tickets after single sign-on at 375 px');
  });

  test(inLanguage('en', 'an address no account has comes back to the login page'), async ({ page }) => {
    await startIn(page, 'en');
    await page.goto('/app/login');
    await page.getByRole('button', { name: `Sign in with ${PROVIDER_NAME}` }).click();
    await signInAtProvider(page, 'stranger@example.com');
    await expect(page).toHaveURL(/\/app\/login$/);
    await expect(page.getByRole('alert')).toHaveText('Single sign-on failed. Please sign in again.');
    expect(await page.evaluate(() => localStorage.getItem('APP_PORTAL_TOKEN'))).toBeNull();
    await expectAccessible(page, 'login after a refused single sign-on');
  });

  test(
    inLanguage('nl', 'second line sees the providers and the form without the secret'),
    async ({ page }) => {
      await storeSession(page, 'admin@example.com', { locale: 'nl' });
      await page.goto('/sso-providers');
      await expect(page.getByRole('heading', { level: 1, name: 'SSO-aanbieders' })).toBeVisible();
      await expect(page.getByRole('cell', { name: PROVIDER_NAME })).toBeVisible();
      await expectAccessible(page, 'the SSO providers list');
      await page.goto('/sso-providers/create');
      await expect(page.getByLabel('Client-secret')).toBeVisible();
      await expect(page.getByLabel('Toegestane e-maildomeinen')).toBeVisible();
      await expectAccessible(page, 'a new SSO provider');
      await page.screenshot({ path: test.info().outputPath('create-nl-1280.png'), fullPage: true });
    },
  );
});
