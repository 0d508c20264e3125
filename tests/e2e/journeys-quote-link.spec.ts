/**
 * The e-mailed quote link (issue 14, item 2; SPEC 2, 4, 5): an operator sends a quote through the
 * server's own send flow, the test reads the link out of the mail the server wrote (DATA_DIR/mail, no
 * SMTP_URL), and opens it in a browser with nobody signed in. The link shows the quote as a signed-in
 * client sees it (lines, totals, company and client, the signer's name prefilled with the client's full
 * name), offers no page it cannot open (no menu; a page it cannot open leads back to the quote, not to
 * the tickets that loop back to 403), loads only what the quote needs (one status call, one quote call,
 * compressed scripts under a budget), and signing through it accepts the quote. Each test in one language
 * (Dutch, English or German, named in its title); the 403 page's wording in all three is asserted at its
 * catalogue keys in tests/browser/journey-wording-records.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { parseMail } from '../api/smtp.ts';
import { test, expect } from './fixtures.ts';
import { DEMO_PASSWORD, expectAccessible, inkOn, inLanguage, sign, startIn } from './support.ts';

/**
 * The portal's scripts, as sent (compressed), before the quote shows: 0.41 MB measured when this test
 * was written (it was 1.40 MB uncompressed, in 51 files, before the build wrote brotli copies), 0.47 MB
 * once the rest of issue 14 (badges, list widths, error states, translated lists) was in. A budget
 * that catches the next large addition, not a target: the next step is making the list screen lazy.
 */
const SCRIPT_BUDGET_BYTES = 560 * 1024;

const LINES = [
  { description: 'Laptop 14 inch zakelijk', quantity: 3, price: 1099 },
  { description: 'Installatie per uur', quantity: 4, price: 95 },
];

interface SentQuote {
  id: number;
  name: string;
  /** The link exactly as the mail has it. */
  link: string;
}

let admin: Promise<Record<string, string>> | undefined;

/** The admin's bearer header: one login for the file (a login hashes a password: slow on a busy machine). */
function adminHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  admin ??= (async () => {
    const res = await request.post('/api/auth/login', {
      data: { username: 'admin@example.com', password: DEMO_PASSWORD },
    });
    expect(res.ok(), await res.text()).toBe(true);
    return { authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
  })();
  return admin;
}

/**
 * A new quote for Jansen BV's client (client@example.com, Pieter Jansen) with two lines entered without
 * totals, as the back office enters them, sent by the admin; its link read from the mail the server wrote.
 */
async function sendQuote(request: APIRequestContext, dataDir: string, label: string): Promise<SentQuote> {
  const headers = await adminHeaders(request);
  const json = async (res: Awaited<ReturnType<APIRequestContext['get']>>) => {
    expect(res.ok(), `${res.url()}: ${await res.text()}`).toBe(true);
    return res.json();
  };
  const quotes = (await json(
    await request.get('/api/quotes?with[0]=company&with[1]=client&builder[0][paginate]=100', { headers }),
  )) as { data: { company_id: number; client_id: number; company?: { name: string } }[] };
  const model = quotes.data.find((q) => q.company?.name === 'Jansen BV' && q.client_id);
  expect(model, 'a quote of Jansen BV with a client in the demo data').toBeTruthy();
  const name = `Linktest ${label} ${Date.now()}`;
  const quote = (await json(
    await request.post('/api/quotes', {
      headers,
      data: { name, company_id: model!.company_id, client_id: model!.client_id },
    }),
  )) as { id: number };
  for (const [i, line] of LINES.entries()) {
    await json(
      await request.post('/api/quote-lines', {
        headers,
        data: { ...line, quote_id: quote.id, order: i + 1 },
      }),
    );
  }

  const mailDir = join(dataDir, 'mail');
  const mailsBefore = new Set(listMails(mailDir));
  await json(await request.post(`/api/quotes/${quote.id}/send`, { headers, data: {} }));
  // The server writes the mail before it answers the send call.
  for (const file of listMails(mailDir).filter((f) => !mailsBefore.has(f))) {
    const mail = await parseMail(readFileSync(join(mailDir, file)));
    if (!mail.subject?.includes(name)) continue;
    const link = /https?:\/\/\S+\/app\/quotes\/\d+\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
    expect(link, `a quote link in the mail: ${mail.text}`).toBeTruthy();
    return { id: quote.id, name, link: link! };
  }
  throw new Error(`no mail for quote ${name} in ${mailDir}`);
}

function listMails(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
}

/** Leaves no sent quote of mine behind for the specs that sign the client's sent quotes. */
async function removeQuote(request: APIRequestContext, id: number) {
  const headers = await adminHeaders(request);
  const quote = (await (await request.get(`/api/quotes/${id}`, { headers })).json()) as { status_id: number };
  // An accepted quote stays: it is what the client signed (and cannot be deleted).
  if (Number(quote.status_id) !== 3) await request.delete(`/api/quotes/${id}`, { headers });
}

interface Traffic {
  api: { method: string; path: string; status: number }[];
  scripts: { url: string; bytes: number; encoding: string | undefined }[];
}

/** What the page asks the server for: its API calls and its scripts with their size as sent. */
function watchTraffic(page: Page): Traffic {
  const traffic: Traffic = { api: [], scripts: [] };
  page.on('requestfinished', (request) => {
    void (async () => {
      const response = await request.response();
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) {
        traffic.api.push({
          method: request.method(),
          path: `${url.pathname}${url.search}`,
          status: response?.status() ?? 0,
        });
      } else if (request.resourceType() === 'script') {
        const sizes = await request.sizes();
        traffic.scripts.push({
          url: url.pathname,
          bytes: sizes.responseBodySize,
          encoding: (await response?.allHeaders())?.['content-encoding'],
        });
      }
    })();
  });
  return traffic;
}

test.describe('the e-mailed quote link', () => {
  // Each test sends a quote of its own first (four API calls and a mail) before the browser opens it.
  test.describe.configure({ timeout: 90_000 });

  test.beforeAll(() => {
    // Another spec in this worker may have signed the admin in since (a new login ends the old session).
    admin = undefined;
  });

  test(
    inLanguage(
      'nl',
      'shows the quote as a signed-in client sees it, with no page it cannot open, in two calls (1280 px)',
    ),
    async ({ page, request, demoServer }) => {
      await startIn(page, 'nl');
      const quote = await sendQuote(request, demoServer.dataDir, 'nl');
      try {
        const traffic = watchTraffic(page);
        await page.goto(quote.link);

        // The token is taken out of the address (SPEC 2, guard 2); the quote shows.
        await expect(page).toHaveURL(new RegExp(`/app/quotes/${quote.id}$`));
        await expect(page.getByRole('heading', { level: 1, name: `${quote.name} - Offerte` })).toBeVisible();
        await expect(page.locator('dl').filter({ hasText: 'Bedrijf' })).toContainText('Jansen BV');
        await expect(page.locator('dl').filter({ hasText: 'Klant' })).toContainText('Pieter Jansen');
        const lines = page.getByRole('region', { name: 'Offerteregels' });
        await expect(lines.getByRole('row').filter({ hasText: 'Laptop 14 inch zakelijk' })).toContainText(
          /3.*€\s1\.099,00.*€\s3\.297,00/,
        );
        await expect(lines.getByRole('row').filter({ hasText: 'Installatie per uur' })).toContainText(
          /4.*€\s95,00.*€\s380,00/,
        );
        await expect(page.getByTestId('quote-total')).toContainText(/€\s3\.677,00/);
        // SPEC 5: the name starts as the client's full name; the agreement text and the accept button.
        await expect(page.getByRole('textbox', { name: 'Naam' })).toHaveValue('Pieter Jansen');
        await expect(
          page.getByText(
            'Door je gegevens in te vullen ga je akkoord met deze offerte en de bijbehorende voorwaarden.',
          ),
        ).toBeVisible();
        await expect(page.getByRole('button', { name: 'PDF downloaden' })).toBeVisible();

        // No navigation to pages the link cannot open: no menu, no menu button, no user menu; a way to sign in.
        await expect(page.getByRole('menuitem')).toHaveCount(0);
        await expect(page.getByRole('button', { name: 'Menu openen' })).toBeHidden();
        await expect(page.getByRole('link', { name: 'Inloggen' })).toHaveAttribute('href', '/app/login');
        const links = await page.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
        expect(links.filter((href) => href?.startsWith('/') && href !== '/app/login')).toEqual([]);
        await expectAccessible(page, 'quote link');

        // Only what the quote needs: one status call and one call for the quote with its lines and names,
        // both answered; no list of lines, no user, nothing the token cannot answer.
        await page.waitForLoadState('networkidle');
        expect(traffic.api.map((c) => `${c.method} ${c.path.split('?')[0]} ${c.status}`)).toEqual([
          'GET /api/system/status 200',
          `GET /api/quotes/${quote.id} 200`,
        ]);
        const scripts = traffic.scripts;
        expect(scripts.length).toBeGreaterThan(0);
        // Every script but the smallest (under 1 KB, where compressing gains nothing) comes compressed.
        expect(
          scripts.filter((s) => s.bytes >= 1024 && s.encoding !== 'br' && s.encoding !== 'gzip'),
        ).toEqual([]);
        const bytes = scripts.reduce((sum, s) => sum + s.bytes, 0);
        expect(bytes, `${scripts.length} scripts`).toBeLessThan(SCRIPT_BUDGET_BYTES);
      } finally {
        await removeQuote(request, quote.id);
      }
    },
  );

  test(
    inLanguage('en', 'shows the same quote at 375 px, nothing wider than the screen'),
    async ({ page, request, demoServer }) => {
      await page.setViewportSize({ width: 375, height: 800 });
      await startIn(page, 'en');
      const quote = await sendQuote(request, demoServer.dataDir, 'en');
      try {
        await page.goto(quote.link);
        await expect(page.getByRole('heading', { level: 1, name: `${quote.name} - Quote` })).toBeVisible();
        await expect(page.locator('dl').filter({ hasText: 'Company' })).toContainText('Jansen BV');
        await expect(page.locator('dl').filter({ hasText: 'Client' })).toContainText('Pieter Jansen');
        const lines = page.getByRole('region', { name: 'Quote lines' });
        await expect(lines).toContainText('Laptop 14 inch zakelijk');
        await expect(lines).toContainText('Installatie per uur');
        await expect(page.getByTestId('quote-total')).toContainText('€3,677.00');
        await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Pieter Jansen');
        await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
        await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
        await expectAccessible(page, 'quote link at 375 px');
      } finally {
        await removeQuote(request, quote.id);
      }
    },
  );

  test(
    inLanguage('de', 'a page the link cannot open leads back to the quote or to sign in, not round to 403'),
    async ({ page, request, demoServer }) => {
      await startIn(page, 'de');
      const quote = await sendQuote(request, demoServer.dataDir, '403 de');
      try {
        await page.goto(quote.link);
        await expect(page).toHaveURL(new RegExp(`/app/quotes/${quote.id}$`));
        await expect(page.getByRole('heading', { level: 1 })).toContainText(quote.name);

        // The portal's start (the tickets), a list of quotes, another record: none opens through a link.
        for (const path of ['/app/', '/app/quotes', '/app/tickets/1']) {
          await page.goto(path);
          await expect(page.getByRole('heading', { level: 1, name: 'Zugriff verweigert' })).toBeVisible();
          await expect(page.getByRole('link', { name: 'Zurück zu den Tickets' })).toHaveCount(0);
          await expect(
            page.getByRole('link', { name: 'Anmelden, um diese Seite zu öffnen' }),
          ).toHaveAttribute('href', '/app/login');
        }
        await expectAccessible(page, '403 for a link holder');
        await page.getByRole('link', { name: 'Zurück zum Angebot' }).click();
        await expect(page).toHaveURL(new RegExp(`/app/quotes/${quote.id}$`));
        await expect(page.getByRole('heading', { level: 1 })).toContainText(quote.name);
      } finally {
        await removeQuote(request, quote.id);
      }
    },
  );

  test(
    inLanguage('en', 'signing through the link accepts the quote (an empty pad gives the alert of SPEC 5)'),
    async ({ page, request, demoServer }) => {
      await startIn(page, 'en');
      const quote = await sendQuote(request, demoServer.dataDir, 'sign');
      try {
        await page.goto(quote.link);
        await expect(page.getByRole('heading', { level: 1, name: `${quote.name} - Quote` })).toBeVisible();

        const alerts: string[] = [];
        page.on('dialog', (dialog) => {
          alerts.push(`${dialog.type()}: ${dialog.message()}`);
          void dialog.accept();
        });
        await page.getByRole('button', { name: 'Accept quote' }).click();
        await expect.poll(() => alerts).toEqual(['alert: No signature has been set.']);

        // Clearing a drawn signature makes the pad empty again.
        await sign(page);
        await page.getByRole('button', { name: 'Clear signature' }).click();
        expect(await inkOn(page)).toBe(0);
        await page.getByRole('button', { name: 'Accept quote' }).click();
        await expect.poll(() => alerts).toHaveLength(2);
        expect(alerts[1]).toBe('alert: No signature has been set.');

        // A narrower window (a phone turned) redraws the signature at the new size instead of wiping it.
        await sign(page);
        const box = (await page.getByTestId('signature-pad').boundingBox())!;
        await page.setViewportSize({ width: 900, height: 800 });
        await expect
          .poll(async () => (await page.getByTestId('signature-pad').boundingBox())!.width)
          .toBeLessThan(box.width);
        expect(await inkOn(page)).toBeGreaterThan(300);
        await page.getByRole('textbox', { name: 'Note' }).fill('Signed through the e-mail link.');
        await page.getByRole('button', { name: 'Accept quote' }).click();
        await expect(
          page.getByRole('status').filter({ hasText: 'The quote has been accepted.' }).first(),
        ).toBeVisible();
        await expect(page.getByRole('button', { name: 'Accept quote' })).toHaveCount(0);

        const headers = await adminHeaders(request);
        const stored = (await (await request.get(`/api/quotes/${quote.id}`, { headers })).json()) as {
          status_id: number;
          signed_name: string;
          signed_note: string;
        };
        expect(stored).toMatchObject({
          status_id: 3,
          signed_name: 'Pieter Jansen',
          signed_note: 'Signed through the e-mail link.',
        });
      } finally {
        await removeQuote(request, quote.id);
      }
    },
  );
});
