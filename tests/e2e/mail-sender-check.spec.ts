/**
 * A mail whose sender is not verified, in the back office (issue 31, item 2), against a real server
 * that fetches a real Dovecot mailbox every quarter second: a mail that claims to be the demo client's
 * but carries no proof opens a ticket in the unknown-sender group, and its thread shows the message
 * marked "Afzender niet geverifieerd" with Confirm and Reject; confirming makes it the client's and
 * the ticket the client's. Dutch, 1280 px, axe-core on the screen (screenshot in /tmp/shots-mailtrust/).
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test as base } from './fixtures.ts';
import { startServer, type E2eServer } from './server.ts';
import { DEMO_PASSWORD, expectAccessible, signIn } from './support.ts';
import { hasDovecot, rawMail, startDovecot, type Dovecot } from '../api/dovecot.ts';

const ADMIN = 'admin@example.com';

const test = base.extend<object, { desk: { server: E2eServer; dovecot: Dovecot } }>({
  desk: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const dovecot = await startDovecot();
      const server = await startServer({ MAIL_FETCH_MS: '250' });
      await use({ server, dovecot });
      await server.stop();
      await dovecot.close();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ desk }, use) => use(desk.server.baseURL),
});

async function adminHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const res = await request.post('/api/auth/login', { data: { username: ADMIN, password: DEMO_PASSWORD } });
  expect(res.ok(), await res.text()).toBe(true);
  return { authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
}

test.skip(!hasDovecot(), 'Dovecot is not installed');

test("an unverified sender's mail is marked in the thread, and an operator confirms it", async ({
  page,
  desk,
}) => {
  let headers = await adminHeaders(page.request);
  const created = await page.request.post('/api/mailboxes', {
    headers,
    data: {
      name: `Support ${Date.now()}`,
      host: desk.dovecot.host,
      port: desk.dovecot.port,
      tls: false,
      username: desk.dovecot.user,
      password: desk.dovecot.password,
      active: true,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const subject = `Nieuw rekeningnummer ${Date.now()}`;
  await desk.dovecot.deliver(
    rawMail({ from: 'Klant <client@example.com>', subject, text: 'Betaal voortaan op NL00 EVIL 0000.' }).raw,
  );
  const findTicket = async (): Promise<{ id: number; client_id: number | null } | undefined> => {
    const url = `/api/tickets?builder[0][where][0]=description&builder[0][where][1]=${encodeURIComponent(subject)}`;
    const answer = await page.request.get(url, { headers });
    expect(answer.ok(), await answer.text()).toBe(true);
    return (await answer.json()).data[0] as { id: number; client_id: number | null } | undefined;
  };
  await expect.poll(async () => (await findTicket())?.id, { timeout: 20_000 }).toBeTruthy();
  const ticket = (await findTicket())!;
  expect(ticket.client_id).toBeNull();

  // One session per account: the page's sign-in is the session the test's calls use from here on.
  const token = await signIn(page, ADMIN, 'backoffice', { to: `/tickets/${ticket.id}`, locale: 'nl' });
  headers = { authorization: `Bearer ${token}` };
  await expect(page.getByTestId('message-thread')).toBeVisible({ timeout: 30_000 });
  const check = page.getByTestId('sender-check');
  await expect(check).toContainText(
    'Afzender niet geverifieerd: deze e-mail komt misschien niet van client@example.com.',
  );
  await expect(check).toHaveAttribute('data-sender-check', 'unverified');
  await expect(page.getByTestId('hidden-from-client')).toBeVisible();
  await expectAccessible(page, 'unverified sender in the thread');
  await page.screenshot({ path: '/tmp/shots-mailtrust/unverified-nl-1280.png', fullPage: true });

  await check.getByRole('button', { name: 'Afzender bevestigen' }).click();
  await expect(page.getByText('Afzender bevestigd: het bericht is nu van de klant.')).toBeVisible();
  await expect(page.getByTestId('sender-check')).toHaveCount(0);
  await expect(page.getByTestId('hidden-from-client')).toHaveCount(0);
  await expect.poll(async () => (await findTicket())?.client_id).not.toBeNull();
});
