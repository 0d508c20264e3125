/**
 * Mail that does not go (issue 15, item 4), in the back office against a real server whose mail goes
 * to a loopback SMTP server the test can make refuse: sending a quote while the mail server refuses is
 * a success with a warning in the operator's language (the quote is sent, the mail is tried again by
 * itself); once the outbox gives the mail up it is in the outgoing mail list, where "Try again" sends
 * it; a reply whose mail was given up says so in the thread, at 1280 and 375 px (screenshots in
 * /tmp/mail-failures-*.png). axe-core scans each screen. Each test in one language (the quote in Dutch,
 * the thread in German; the thread's wording in all three is asserted at its catalogue key in
 * tests/browser/journey-wording-records.test.ts).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test as base } from './fixtures.ts';
import { recipients, startSmtp, type LoopbackSmtp } from '../api/smtp.ts';
import { startServer, type E2eServer } from './server.ts';
import { DEMO_PASSWORD, expectAccessible, inLanguage, signIn, startIn } from './support.ts';

const ADMIN = 'admin@example.com';
const CLIENT = 'client@example.com';

/**
 * A server of its own: its mail goes to a loopback SMTP server, a refused mail is tried again a third
 * of a second later and given up after its second attempt, and the sender looks every quarter second.
 */
const test = base.extend<object, { desk: { server: E2eServer; smtp: LoopbackSmtp } }>({
  desk: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const smtp = await startSmtp();
      const server = await startServer({
        SMTP_URL: smtp.url,
        MAIL_MAX_ATTEMPTS: '2',
        MAIL_RETRY_BASE_MS: '300',
        MAIL_RETRY_MAX_MS: '300',
        MAIL_POLL_MS: '250',
      });
      await use({ server, smtp });
      await server.stop();
      await smtp.close();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ desk }, use) => use(desk.server.baseURL),
});

let adminToken: Promise<string> | undefined;

/** The admin's bearer header: one login for the file (a login hashes a password: slow on a busy machine). */
async function adminHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  adminToken ??= (async () => {
    const res = await request.post('/api/auth/login', { data: { username: ADMIN, password: DEMO_PASSWORD } });
    expect(res.ok(), await res.text()).toBe(true);
    return ((await res.json()) as { access_token: string }).access_token;
  })();
  return { authorization: `Bearer ${await adminToken}` };
}

async function api<T = any>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(`/api${path}`, { headers: await adminHeaders(request) });
  expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
  return res.json() as Promise<T>;
}

/** A new concept quote for Jansen BV's client (client@example.com). */
async function newQuote(request: APIRequestContext, label: string): Promise<{ id: number; name: string }> {
  const quotes = await api<{ data: { company_id: number; client_id: number; company?: { name: string } }[] }>(
    request,
    '/quotes?with[0]=company&builder[0][paginate]=100',
  );
  const model = quotes.data.find((q) => q.company?.name === 'Jansen BV' && q.client_id);
  expect(model, 'a quote of Jansen BV with a client in the demo data').toBeTruthy();
  const name = `${label} ${Date.now()}`;
  const res = await request.post('/api/quotes', {
    headers: await adminHeaders(request),
    data: { name, company_id: model!.company_id, client_id: model!.client_id },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return { id: Number((await res.json()).id), name };
}

/** The outbox row of a subject as the operators' list gives it, once `ready` holds for it. */
async function outboxRow(
  request: APIRequestContext,
  subject: string,
  ready: (row: { status: string; attempts: number }) => boolean,
) {
  const path =
    '/mail-outbox?builder[0][where][0]=subject&builder[0][where][1]=' + encodeURIComponent(subject);
  let row: { id: number; status: string; attempts: number } | undefined;
  await expect
    .poll(
      async () => {
        row = (await api<{ data: (typeof row)[] }>(request, path)).data[0];
        return row !== undefined && ready(row);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return row!;
}

const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

test(
  inLanguage(
    'nl',
    'a quote whose mail is refused is sent with a warning; the given-up mail is tried again from the list',
  ),
  async ({ page, desk }) => {
    await startIn(page, 'nl');
    // The API calls go with the page's own session: an operator has one session at a time, so a login of
    // their own would end the page's, and the page's refresh then the calls' (a race the live stream's
    // requests made likelier).
    adminToken = Promise.resolve(await signIn(page, ADMIN, 'backoffice'));
    await expect(page).toHaveURL(/\/tickets$/);

    // The mail server accepts: the toast names who got the quote, in Dutch.
    const accepted = await newQuote(page.request, 'Verzendtest');
    await page.goto(`/quotes/${accepted.id}`);
    let before = desk.smtp.received.length;
    await page.getByRole('button', { name: 'Versturen', exact: true }).click();
    await expect(toast(page, `Offerte verstuurd naar ${CLIENT}.`)).toBeVisible();
    expect(recipients(await desk.smtp.next(before))).toContain(CLIENT);

    // The mail server refuses: still sent, and the operator is told not to send it again.
    const refused = await newQuote(page.request, 'Weigertest');
    const subject = `Offerte "${refused.name}" van Acme IT`;
    await page.goto(`/quotes/${refused.id}`);
    desk.smtp.refusing = true;
    try {
      await page.getByRole('button', { name: 'Versturen', exact: true }).click();
      const warning = toast(
        page,
        'De offerte is als verzonden gemarkeerd, maar de e-mail kon nog niet worden verstuurd. ' +
          'Hij wordt automatisch opnieuw geprobeerd; verstuur de offerte niet opnieuw.',
      );
      // A warning (a status), not the error toast (an alert) of a call that failed: the quote is sent.
      await expect(warning).toBeVisible();
      await expect(page.getByRole('button', { name: 'Opnieuw versturen' })).toBeVisible();
      expect(Number((await api(page.request, `/quotes/${refused.id}`)).status_id)).toBe(2);
      await expectAccessible(page, 'quote sent with a warning');
      // The second attempt is refused as well: given up.
      await outboxRow(page.request, subject, (r) => r.status === 'failed');
    } finally {
      desk.smtp.refusing = false;
    }

    // The operator finds it among the outgoing mail, with its recipient, attempts and error.
    await page.goto('/mail-outbox');
    const row = page.getByRole('row').filter({ hasText: subject });
    await expect(row).toBeVisible();
    await expect(row).toContainText(CLIENT);
    await expect(row).toContainText('Opgegeven');
    // The subject in full (x-ellipsis false): the quote's name is at its end.
    await expectAccessible(page, 'outgoing mail list');
    await row.getByText(subject).click();
    await expect(page).toHaveURL(/\/mail-outbox\/\d+$/);
    await expect(
      page.getByRole('heading', { level: 1, name: `${subject} - Uitgaande e-mail` }),
    ).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: 'Mailbox unavailable' })).toBeVisible();
    await expectAccessible(page, 'outgoing mail detail');

    before = desk.smtp.received.length;
    await page.getByRole('button', { name: 'Opnieuw proberen' }).click();
    await expect(toast(page, 'De e-mail is verstuurd.')).toBeVisible();
    const mail = await desk.smtp.next(before);
    expect(mail.subject).toBe(subject);
    expect(mail.text).toContain(`/app/quotes/${refused.id}?token=`);
    // Sent: back to the list, where it is no longer.
    await expect(page).toHaveURL(/\/mail-outbox$/);
    await expect(page.getByRole('row').filter({ hasText: subject })).toHaveCount(0);
  },
);

/** What the thread says of a reply whose mail was given up, in German. */
const GIVEN_UP = {
  notice: 'Die E-Mail an den Kunden konnte nicht gesendet werden und wurde aufgegeben.',
  link: 'Ausgehende E-Mails öffnen',
  outbox: 'Ausgehende E-Mails',
  status: 'Aufgegeben',
};

test(
  inLanguage('de', 'a reply whose mail was given up says so in the thread, at 1280 and 375 px'),
  async ({ browser, page, desk }) => {
    const lang = 'de';
    await startIn(page, lang);
    const tickets = await api<{ data: { id: number; is_template: boolean; client_id: number | null }[] }>(
      page.request,
      '/tickets?builder[0][paginate]=50',
    );
    const ticket = tickets.data.filter((t) => !t.is_template && t.client_id)[3]!;
    // What else of its thread says its mail was given up (the demo data has one such reply).
    const thread = await api<{ data: { mail_error: string | null }[] }>(
      page.request,
      `/messages?builder[0][where][0]=morphable_type&builder[0][where][1]=ticket` +
        `&builder[1][where][0]=morphable_id&builder[1][where][1]=${ticket.id}&builder[2][paginate]=100`,
    );
    const givenUpBefore = thread.data.filter((m) => m.mail_error).length;
    const text = `Nooit aangekomen ${Date.now()}`;
    desk.smtp.refusing = true;
    let messageId: number;
    try {
      const res = await page.request.post('/api/messages', {
        headers: await adminHeaders(page.request),
        data: {
          message: `<p>${text}</p>`,
          morphable_type: 'ticket',
          morphable_id: ticket.id,
          send_to_client: true,
        },
      });
      expect(res.status(), await res.text()).toBe(201);
      messageId = Number((await res.json()).id);
      await expect
        .poll(async () => (await api(page.request, `/messages/${messageId}`)).mail_error, { timeout: 20_000 })
        .toContain('given up');
    } finally {
      desk.smtp.refusing = false;
    }

    const address = `/tickets/${ticket.id}#message-${messageId!}`;
    /** The reply's notice on the screen, its link, the one notice more; the page no wider than the screen. */
    const seeNotice = async (screen: Page, width: number) => {
      const item = screen.locator(`#message-${messageId!}`);
      const notice = item.getByTestId('mail-given-up');
      await expect(notice).toContainText(GIVEN_UP.notice);
      await expect(notice.getByRole('link', { name: GIVEN_UP.link })).toBeVisible();
      // Only on that message (and any other of the thread whose mail was given up).
      await expect(screen.getByTestId('mail-given-up')).toHaveCount(givenUpBefore + 1);
      await item.scrollIntoViewIfNeeded();
      await screen.screenshot({ path: `/tmp/mail-failures-thread-${lang}-${width}.png` });
      const overflow = await screen.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
      await expectAccessible(screen, `given-up mail in the thread at ${width} px`);
    };

    // At 375 px a device of that width from the start, as a phone is (a window resized from 1280 px keeps
    // its menu open as a drawer over the page).
    const phone = await browser.newContext({
      baseURL: desk.server.baseURL,
      viewport: { width: 375, height: 800 },
    });
    try {
      const screen = await phone.newPage();
      await signIn(screen, ADMIN, 'backoffice', { to: address, locale: lang });
      await seeNotice(screen, 375);
    } finally {
      await phone.close();
    }

    // At 1280 px the test's own page (its viewport), which then follows the link.
    expect(page.viewportSize()?.width).toBe(1280);
    await signIn(page, ADMIN, 'backoffice', { to: address });
    await seeNotice(page, 1280);
    // The link leads to the outgoing mail, where the reply's mail is.
    await page.locator(`#message-${messageId!}`).getByRole('link', { name: GIVEN_UP.link }).click();
    await expect(page).toHaveURL(/\/mail-outbox$/);
    await expect(page.getByRole('heading', { level: 1, name: GIVEN_UP.outbox })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: GIVEN_UP.status }).first()).toBeVisible();
  },
);
