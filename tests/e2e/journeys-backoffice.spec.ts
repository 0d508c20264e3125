/**
 * Issue 14, items 9, 11, 12 and 13, in the back office, each test in one language (nl, en or de; its
 * wording in the others is asserted at its catalogue key in tests/browser/journey-wording.test.ts):
 *  9  references on a detail and in a list link to their record's detail where the user may open it,
 *     plain text where not (a first-line operator and an invoice);
 * 11  a route the user may not open goes to the 403 page (a first-line operator typing /invoices), at
 *     1280 and 375 px;
 * 12  a ticket's time-registrations tab adds a registration that starts with the ticket, the operator
 *     (me) and now; the rounded time is computed (15-minute steps in the demo);
 * 13  toasts: '{type} created' for a time registration and a clone, 'saved' for an internal note.
 * Records come from the API; what a test writes is its own (a unique description), so the order of the
 * tests and other specs' writes do not matter.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  expectAccessible,
  firstRecordRow,
  inLanguage,
  signIn,
  startIn,
  storeSession,
  type Lang,
} from './support.ts';

const ADMIN = 'admin@example.com';
const OPERATOR = 'operator@example.com';
const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 900 };

const TEXT = {
  nl: {
    denied: 'Geen toegang',
    requested: 'Gevraagde pagina:',
    tab: 'Urenregistraties',
    add: 'Urenregistratie toevoegen',
    created: 'Urenregistratie aangemaakt',
    ticketCreated: 'Ticket aangemaakt',
    clone: 'Klonen',
    noteSaved: 'Notitie opgeslagen.',
    saveNote: 'Opslaan als interne notitie',
    editor: 'Schrijf een bericht…',
    spent: /bestede tijd/i,
    description: 'Omschrijving',
    save: 'Opslaan',
    executedAt: 'Uitgevoerd op',
  },
  en: {
    denied: 'Access denied',
    requested: 'Requested page:',
    tab: 'Time registrations',
    add: 'Add time registration',
    created: 'Time registration created',
    ticketCreated: 'Ticket created',
    clone: 'Clone',
    noteSaved: 'Note saved.',
    saveNote: 'Save as internal note',
    editor: 'Write a message…',
    spent: /time spent/i,
    description: 'Description',
    save: 'Save',
    executedAt: 'Executed at',
  },
  de: {
    denied: 'Zugriff verweigert',
    requested: 'Angeforderte Seite:',
    tab: 'Zeiterfassungen',
    add: 'Zeiterfassung hinzufügen',
    created: 'Zeiterfassung erstellt',
    ticketCreated: 'Ticket erstellt',
    clone: 'Klonen',
    noteSaved: 'Notiz gespeichert.',
    saveNote: 'Als interne Notiz speichern',
    editor: 'Nachricht schreiben…',
    spent: /aufgewendete zeit/i,
    description: 'Beschreibung',
    save: 'Speichern',
    executedAt: 'Ausgeführt am',
  },
} as const;

/** Reads the API as `email`, in `lang`: translated names (an SLA's, say) come in the app's language. */
async function api(request: APIRequestContext, email: string, path: string, lang: Lang): Promise<any> {
  const auth = await request.post('/api/auth/login', { data: { username: email, password: 'demo' } });
  expect(auth.ok()).toBe(true);
  const res = await request.get(`/api/${path}`, {
    headers: { authorization: `Bearer ${(await auth.json()).access_token}`, 'accept-language': lang },
  });
  expect(res.ok()).toBe(true);
  return res.json();
}

/** A ticket with a company, client, operator and SLA, with those records loaded. */
async function linkedTicket(request: APIRequestContext, lang: Lang) {
  const answer = await api(
    request,
    ADMIN,
    'tickets?builder[0][whereNotNull]=company_id&builder[1][whereNotNull]=client_id' +
      '&builder[2][whereNotNull]=operator_id&builder[3][whereNotNull]=sla_id' +
      '&builder[4][paginate]=1&with[0]=company&with[1]=client&with[2]=operator&with[3]=sla',
    lang,
  );
  return answer.data[0];
}

const toast = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

// Each journey signs in and walks several screens (axe on some): more than the default minute.
test.describe.configure({ timeout: 120_000 });

// The 403 page at both widths, each in a language of its own.
for (const [lang, size, where] of [
  ['nl', DESKTOP, 'desktop'],
  ['en', PHONE, 'phone'],
] as const) {
  test(
    inLanguage(lang, `item 11: a first-line operator typing /invoices gets the 403 page (${where})`),
    async ({ page }) => {
      const t = TEXT[lang];
      await startIn(page, lang);
      await page.setViewportSize(size);
      // No landing page first: the first address the loop types is the first page of the session.
      await storeSession(page, OPERATOR);
      for (const [path, route] of [
        ['/invoices', 'invoices.index'],
        ['/invoices/1', 'invoices.show'],
        ['/invoices/create', 'invoices.create'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1, name: t.denied })).toBeVisible();
        const url = new URL(page.url());
        expect(url.pathname).toBe('/403');
        expect(url.searchParams.get('path')).toBe(path);
        expect(url.searchParams.get('r')).toBe(route);
        await expect(page.getByText(`${t.requested} ${path}`)).toBeVisible();
        await expect(page.getByTestId('skeleton-row')).toHaveCount(0);
      }
      await expectAccessible(page, `403 page (${lang}, ${where})`);
    },
  );
}

test(
  inLanguage('de', 'item 11: a route the user holds stays open (the admin opens /invoices)'),
  async ({ page }) => {
    await startIn(page, 'de');
    await signIn(page, ADMIN, 'backoffice', { to: '/invoices' });
    await expect(firstRecordRow(page)).toBeVisible({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/invoices');
  },
);

test(
  inLanguage('nl', 'item 9: a ticket detail links its company, client, operator and SLA'),
  async ({ page }) => {
    const lang = 'nl';
    await startIn(page, lang);
    const ticket = await linkedTicket(page.request, lang);
    await signIn(page, ADMIN, 'backoffice', { to: `/tickets/${ticket.id}` });
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(ticket.reference) })).toBeVisible();
    const details = page.locator('dl').first();
    for (const [label, path] of [
      [ticket.company.name, `/companies/${ticket.company_id}`],
      [ticket.client.full_name, `/clients/${ticket.client_id}`],
      [ticket.operator.full_name, `/operators/${ticket.operator_id}`],
      [ticket.sla.name, `/slas/${ticket.sla_id}`],
    ]) {
      await expect(details.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', path);
    }
    // No axe here: a demo ticket's plain detail, which the translation sweep scans at both widths.
    await details.getByRole('link', { name: ticket.company.name, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/companies/${ticket.company_id}$`));
    await expect(
      page.getByRole('heading', { level: 1, name: new RegExp(ticket.company.name) }),
    ).toBeVisible();
  },
);

// At both widths, each in a language of its own (the company is a link in a row and in a card).
for (const [lang, size, where] of [
  ['en', DESKTOP, 'desktop'],
  ['de', PHONE, 'phone'],
] as const) {
  test(
    inLanguage(lang, `item 9: a company in the tickets list opens the company, not the ticket (${where})`),
    async ({ page }) => {
      await startIn(page, lang);
      await page.setViewportSize(size);
      await signIn(page, ADMIN, 'backoffice');
      const link = page.locator('a[href^="/companies/"]').first();
      await expect(link).toBeVisible();
      const href = (await link.getAttribute('href'))!;
      const name = (await link.textContent())!;
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expect(page.getByRole('heading', { level: 1, name: new RegExp(name) })).toBeVisible();
    },
  );
}

test(inLanguage('nl', 'item 9: without the show permission a reference is plain text'), async ({ page }) => {
  const lang = 'nl';
  await startIn(page, lang);
  // A time registration on an invoice: a first-line operator may not open invoices (but tickets).
  const answer = await api(
    page.request,
    OPERATOR,
    'time-registrations?builder[0][whereNotNull]=invoice_id&builder[1][paginate]=1&with[0]=invoice&with[1]=ticket',
    lang,
  );
  const registration = answer.data[0];
  await signIn(page, OPERATOR, 'backoffice', { to: `/time-registrations/${registration.id}` });
  const details = page.locator('dl').first();
  await expect(details.getByRole('link', { name: registration.ticket.reference })).toHaveAttribute(
    'href',
    `/tickets/${registration.ticket_id}`,
  );
  await expect(details.getByText(registration.invoice.code, { exact: true })).toBeVisible();
  await expect(details.getByRole('link', { name: registration.invoice.code })).toHaveCount(0);
});

test(
  inLanguage('en', 'items 12 and 13: a ticket tab adds a time registration for the ticket, me and now'),
  async ({ page }) => {
    const lang = 'en';
    const t = TEXT[lang];
    await startIn(page, lang);
    // The browser's clock says when 'now' is: today, at a whole minute that the test knows.
    const now = new Date();
    now.setSeconds(0, 0);
    await page.clock.setFixedTime(now);
    const ticket = await linkedTicket(page.request, lang);
    const me = (await api(page.request, ADMIN, 'auth/me', lang)).user;
    await signIn(page, ADMIN, 'backoffice');
    // The day and time as the browser's time zone shows them.
    const shown = await page.evaluate((ms) => {
      const d = new Date(ms);
      const two = (n: number) => String(n).padStart(2, '0');
      return `${d.getDate()} \\p{L}+ ${two(d.getHours())}:${two(d.getMinutes())}`;
    }, now.getTime());

    for (const [typed, spent, rounded] of [
      ['01:30', '01:30', '01:30'],
      ['20', '00:20', '00:30'],
    ] as const) {
      await page.goto(`/tickets/${ticket.id}`);
      await page.getByRole('tab', { name: new RegExp(t.tab) }).click();
      await page.getByRole('link', { name: t.add }).click();
      await expect(page).toHaveURL(/\/time-registrations\/create$/);
      await expect(page.getByRole('combobox', { name: 'Ticket', exact: true })).toHaveValue(ticket.reference);
      await expect(page.getByRole('combobox', { name: 'Operator' })).toHaveValue(me.full_name);
      await expect(page.getByRole('group', { name: t.executedAt })).toContainText(new RegExp(shown, 'u'));
      const description = `e2e ${lang} ${typed} ${Date.now()}`;
      await page.getByLabel(t.description, { exact: true }).fill(description);
      await page.getByLabel(t.spent).first().fill(typed);
      await page.getByRole('button', { name: t.save }).click();
      await expect(toast(page, t.created)).toBeVisible();

      // Back on the ticket, on the same tab, with the new row and its rounded time.
      await expect(page).toHaveURL(new RegExp(`/tickets/${ticket.id}$`));
      await expect(page.getByRole('tab', { name: new RegExp(t.tab) })).toHaveAttribute(
        'aria-selected',
        'true',
      );
      const row = page.getByRole('row').filter({ hasText: description });
      await expect(row).toContainText(me.full_name);
      const cells = await row.getByRole('cell').allTextContents();
      expect(cells).toContain(spent);
      expect(cells).toContain(rounded);
    }
    await expectAccessible(page, `ticket time registrations tab (${lang})`);
  },
);

test(
  inLanguage('de', 'item 13: an internal note says it was saved; a clone says the ticket was created'),
  async ({ page }) => {
    const lang = 'de';
    const t = TEXT[lang];
    await startIn(page, lang);
    const ticket = await linkedTicket(page.request, lang);
    await signIn(page, ADMIN, 'backoffice', { to: `/tickets/${ticket.id}` });
    const note = `e2e note ${lang} ${Date.now()}`;
    await page.getByRole('textbox', { name: t.editor }).click();
    await page.keyboard.type(note);
    await page.getByRole('button', { name: t.saveNote }).click();
    await expect(toast(page, t.noteSaved)).toBeVisible();
    await expect(page.getByTestId('message').filter({ hasText: note })).toHaveAttribute(
      'data-kind',
      'internal_note',
    );

    await page.getByRole('button', { name: t.clone }).click();
    await expect(toast(page, t.ticketCreated)).toBeVisible();
    await expect(page).not.toHaveURL(new RegExp(`/tickets/${ticket.id}$`));
    await expect(page).toHaveURL(/\/tickets\/\d+$/);
  },
);
