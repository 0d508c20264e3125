/**
 * The first run in the browser (issue 32): a server with SEED=none on an empty folder sends the back
 * office to its setup page; the page tests the outgoing mail, creates the tenant and its first operator
 * and signs that operator in; the operator creates a company in the back office; a client and a ticket
 * for it follow (through the API, as tests/api/first-run-journey.ts does the rest), and the client
 * signs in to the portal and finds the ticket. A second setup is refused and the page leads to sign-in.
 * Screenshots of the page at 1280 and 375 px: /tmp/first-run-*.png. In Dutch, the default.
 */
import { test as base, expect } from '@playwright/test';
import { startServer, type E2eServer } from './server.ts';
import { expectAccessible } from './support.ts';

/** A server of its own with SEED=none on an empty folder: an installation nobody has set up. */
const test = base.extend<object, { fresh: E2eServer }>({
  fresh: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const server = await startServer({ SEED: 'none' }, { seeded: '' });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ fresh }, use) => use(fresh.baseURL),
});

const OPERATOR = { email: 'eigenaar@dienstverlener.test', password: 'Een lange zin voor de desk' };

test('a new desk is set up in the browser and used by its operator and its first client', async ({
  page,
  browser,
  fresh,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/');
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Richt je servicedesk in' })).toBeVisible();
  await page.screenshot({ path: '/tmp/first-run-nl-375.png', fullPage: true });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth))
    .toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Nothing filled in: each required field says so, nothing is sent.
  await page.getByRole('button', { name: 'Servicedesk inrichten' }).click();
  await expect(page.getByText('Naam van de organisatie is verplicht')).toBeVisible();
  await page.getByLabel('Naam van de organisatie').fill('Bakker ICT');
  await page.getByLabel('Voornaam').fill('Bea');
  await page.getByLabel('Achternaam').fill('Bakker');
  await page.getByLabel('E-mailadres').fill(OPERATOR.email);
  await page.locator('input[autocomplete="new-password"]').fill('football');

  // The outgoing mail, tested: without SMTP_URL it is a file.
  await page.getByRole('button', { name: 'Testmail versturen' }).click();
  await expect(page.getByRole('status')).toContainText('als bestand in DATA_DIR/mail geschreven');
  // A mailbox that does not answer says why.
  await page.getByLabel('Nu een mailbox koppelen').check();
  await page.getByLabel('IMAP-server').fill('127.0.0.1');
  await page.getByLabel('Poort').fill('1');
  await page.getByLabel('Gebruikersnaam').fill('support@dienstverlener.test');
  await page.getByLabel('Wachtwoord van de mailbox').fill('geheim');
  await page.getByRole('button', { name: 'Verbinding testen' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Verbinden mislukt' })).toContainText(
    'ECONNREFUSED',
  );
  await page.screenshot({ path: '/tmp/first-run-nl-1280.png', fullPage: true });
  await expectAccessible(page, 'first-run setup page with test results');
  await page.getByLabel('Nu een mailbox koppelen').uncheck();

  // A common password is refused by the server's rules, in Dutch.
  await page.getByRole('button', { name: 'Servicedesk inrichten' }).click();
  await expect(page.getByText('Dit wachtwoord is een van de meest gebruikte')).toBeVisible();
  await page.locator('input[autocomplete="new-password"]').fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Servicedesk inrichten' }).click();

  // Signed in as the new operator, in the back office.
  await expect(page).not.toHaveURL(/\/(setup|login)$/, { timeout: 30_000 });
  await expect(page.getByRole('button', { name: /Bea Bakker/ })).toBeVisible();

  await page.goto('/companies/create');
  await page.getByLabel('Naam').first().fill('Eerste Klant BV');
  await page.getByRole('button', { name: 'Opslaan' }).click();
  await expect(page).toHaveURL(/\/companies\/\d+/);
  const companyId = Number(/\/companies\/(\d+)/.exec(page.url())![1]);

  // The client with a password and the ticket, with the operator's own session.
  const token = await page.evaluate(() => localStorage.getItem('APP_PORTAL_TOKEN'));
  const headers = { authorization: `Bearer ${token}` };
  const roles = await (await page.request.get('/api/roles', { headers })).json();
  const clientRole = roles.data.find((r: { is_operator: boolean }) => !r.is_operator);
  const client = await page.request.post('/api/clients', {
    headers,
    data: {
      first_name: 'Kim',
      last_name: 'Klant',
      email: 'kim@eerste-klant.test',
      password: 'Kim haar eigen wachtwoord',
      role_id: clientRole.id,
    },
  });
  expect(client.status(), await client.text()).toBe(201);
  const clientId = (await client.json()).id;
  await page.request.post('/api/company-user', {
    headers,
    data: { company_id: companyId, user_id: clientId },
  });
  const ticket = await page.request.post('/api/tickets', {
    headers,
    data: { description: 'De printer doet het niet', company_id: companyId, client_id: clientId },
  });
  expect(ticket.status(), await ticket.text()).toBe(201);
  const reference = (await ticket.json()).reference;

  // The client signs in to the portal and finds the ticket.
  const portal = await browser.newContext({ baseURL: fresh.baseURL });
  const clientPage = await portal.newPage();
  await clientPage.goto('/app/login');
  // The portal carries the new organisation's name.
  await expect(clientPage.getByRole('heading', { level: 1 })).toContainText('Bakker ICT');
  await clientPage.getByLabel('E-mailadres').fill('kim@eerste-klant.test');
  await clientPage.getByLabel('Wachtwoord').fill('Kim haar eigen wachtwoord');
  await clientPage.getByRole('button', { name: 'Inloggen' }).click();
  await expect(clientPage).toHaveURL(/\/app\/tickets$/);
  await expect(clientPage.getByText(reference).first()).toBeVisible();
  await portal.close();

  // The setup page again: the desk is set up, so it leads to sign-in.
  const again = await browser.newContext({ baseURL: fresh.baseURL });
  const second = await again.newPage();
  await second.goto('/setup');
  await expect(second).toHaveURL(/\/login$/);
  const repeat = await second.request.post('/api/setup', {
    data: {
      name: 'Overname BV',
      language: 'nl',
      admin: {
        first_name: 'Eve',
        last_name: 'Indringer',
        email: 'eve@example.test',
        password: OPERATOR.password,
      },
    },
  });
  expect(repeat.status()).toBe(409);
  await again.close();
});
