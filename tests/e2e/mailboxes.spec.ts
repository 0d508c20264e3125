/**
 * Mailboxes in the back office (issue 19): a mailbox whose server cannot be reached is shown as failing,
 * with the translated warning, once the server's own fetcher has tried it (every quarter second here);
 * the form types the password unseen. At 1280 and 375 px, each test in one language (its wording in the
 * others is asserted at its catalogue key in tests/browser/journey-wording.test.ts); axe-core on the
 * states only this file builds (screenshots in /tmp/shots-mailin/).
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test as base } from './fixtures.ts';
import { freePort, startServer, type E2eServer } from './server.ts';
import { DEMO_PASSWORD, expectAccessible, inLanguage, signIn, startIn } from './support.ts';

const ADMIN = 'admin@example.com';

const test = base.extend<object, { desk: E2eServer }>({
  desk: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const server = await startServer({ MAIL_FETCH_MS: '250' });
      await use(server);
      await server.stop();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ desk }, use) => use(desk.baseURL),
});

async function adminHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const res = await request.post('/api/auth/login', { data: { username: ADMIN, password: DEMO_PASSWORD } });
  expect(res.ok(), await res.text()).toBe(true);
  return { authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
}

const TEXTS = {
  nl: {
    failing: 'Faalt: ophalen wordt later opnieuw geprobeerd',
    password: 'Wachtwoord',
    heading: 'Mailboxen',
  },
  en: { failing: 'Failing: fetching is retried later', password: 'Password', heading: 'Mailboxes' },
  de: {
    failing: 'Fehlerhaft: der Abruf wird später erneut versucht',
    password: 'Passwort',
    heading: 'Postfächer',
  },
} as const;

test(
  inLanguage('de', 'a mailbox that cannot be reached is shown as failing; the password is typed unseen'),
  async ({ page }) => {
    const lang = 'de';
    const t = TEXTS[lang];
    await startIn(page, lang);
    const headers = await adminHeaders(page.request);
    // A port nothing listens on: the connection is refused at once.
    const name = `Kapot ${Date.now()}`;
    const created = await page.request.post('/api/mailboxes', {
      headers,
      data: {
        name,
        host: '127.0.0.1',
        port: await freePort(),
        tls: false,
        username: 'x',
        password: 'y',
        active: true,
      },
    });
    expect(created.ok(), await created.text()).toBe(true);
    const id = Number((await created.json()).id);
    try {
      await expect
        .poll(
          async () => (await (await page.request.get(`/api/mailboxes/${id}`, { headers })).json()).status,
          {
            timeout: 20_000,
          },
        )
        .toBe('failing');
      await signIn(page, ADMIN, 'backoffice', { to: '/mailboxes' });
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/mailboxes');
        await expect(page.getByRole('heading', { level: 1, name: t.heading })).toBeVisible();
        await expect(page.getByText(t.failing).first()).toBeVisible();
        await expectAccessible(page, `mailboxes ${lang} ${width}`);
        await page.screenshot({ path: `/tmp/shots-mailin/mailboxes-${lang}-${width}.png`, fullPage: true });

        // No axe on the form: it is the plain create form, which the translation sweep scans at both widths.
        await page.goto('/mailboxes/create');
        const password = page.getByLabel(t.password, { exact: true });
        await expect(password).toBeVisible();
        await expect(password).toHaveAttribute('type', 'password');
        await page.screenshot({
          path: `/tmp/shots-mailin/mailbox-form-${lang}-${width}.png`,
          fullPage: true,
        });
      }
    } finally {
      await page.request.delete(`/api/mailboxes/${id}`, { headers });
    }
  },
);

test(
  inLanguage(
    'en',
    "a mail's quoted earlier reply is folded in the thread, its toggle in the reader's language",
  ),
  async ({ page }) => {
    const lang = 'en';
    const toggle = 'Show quoted text';
    await startIn(page, lang);
    const headers = await adminHeaders(page.request);
    const tickets = await (await page.request.get('/api/tickets?builder[0][paginate]=1', { headers })).json();
    const ticket = tickets.data[0] as { id: number; reference: string };
    // As the fetcher stores a mail's quote (server/mail/inbound/process.ts): the new text, then the fold.
    const posted = await page.request.post('/api/messages', {
      headers,
      data: {
        morphable_type: 'ticket',
        morphable_id: ticket.id,
        message:
          '<p>Thanks, that solved it.</p><details><summary>…</summary><p>Earlier answer quoted</p></details>',
        visible_to_client: true,
      },
    });
    expect(posted.ok(), await posted.text()).toBe(true);
    const id = Number((await posted.json()).id);
    try {
      await signIn(page, ADMIN, 'backoffice', { to: `/tickets/${ticket.id}` });
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/tickets/${ticket.id}`);
        const item = page.locator(`#message-${id}`);
        await expect(item.getByText('Thanks, that solved it.')).toBeVisible();
        await expect(item.getByText('Earlier answer quoted')).toBeHidden();
        await item.getByText(toggle, { exact: true }).click();
        await expect(item.getByText('Earlier answer quoted')).toBeVisible();
        await expectAccessible(page, `folded quote ${lang} ${width}`);
        await item.screenshot({ path: `/tmp/shots-mailin/quoted-${lang}-${width}.png` });
      }
    } finally {
      await page.request.delete(`/api/messages/${id}`, { headers });
    }
  },
);
