/**
 * Colleagues in the portal (issue 39, item 1). Pieter (client@example.com) is the company admin of
 * Jansen BV, Lotte a member. He opens 'Colleagues' from the menu and makes her finance: she then sees
 * the company's invoices, which as a member she did not; he makes her a member again. A member has no
 * such menu entry, and the address opens the access-denied page. He shares a ticket of his with her: she
 * then finds it in her list and opens it; once he ends the share it is gone for her again.
 *
 * Each journey in Dutch at 1280 px and in English at 375 px; axe-core on every screen the journey shows.
 * Screenshots in $COLLEAGUES_SHOTS when set.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  DEMO_PASSWORD,
  api,
  expectAccessible,
  inLanguage,
  startIn,
  storeSession,
  type Lang,
} from './support.ts';

const ADMIN = 'client@example.com';
const MEMBER = 'lotte.smit@jansenbv.nl';

const RUNS = [
  { lang: 'nl', width: 1280 },
  { lang: 'en', width: 375 },
] as const satisfies readonly { lang: Lang; width: number }[];

const WORDS = {
  nl: {
    menu: 'Menu openen',
    colleagues: "Collega's",
    tickets: 'Tickets',
    roleOf: 'Rol van Lotte Smit',
    member: 'Lid',
    finance: 'Financiën',
    madeFinance: 'Lotte Smit heeft nu de rol Financiën.',
    madeMember: 'Lotte Smit heeft nu de rol Lid.',
    you: 'Pieter Jansen (jij)',
    counter: / van \d+$/,
    denied: 'Geen toegang',
    sharedWith: 'Gedeeld met',
    none: 'Dit ticket is met niemand gedeeld.',
    colleague: 'Collega om mee te delen',
    share: 'Delen',
    shared: 'Gedeeld met Lotte Smit.',
    unshare: 'Niet meer delen met Lotte Smit',
    unshared: 'Niet meer gedeeld met Lotte Smit.',
  },
  en: {
    menu: 'Open menu',
    colleagues: 'Colleagues',
    tickets: 'Tickets',
    roleOf: 'Role of Lotte Smit',
    member: 'Member',
    finance: 'Finance',
    madeFinance: 'Lotte Smit now has the role Finance.',
    madeMember: 'Lotte Smit now has the role Member.',
    you: 'Pieter Jansen (you)',
    counter: / of \d+$/,
    denied: 'Access denied',
    sharedWith: 'Shared with',
    none: 'This ticket is not shared with anyone.',
    colleague: 'Colleague to share with',
    share: 'Share',
    shared: 'Shared with Lotte Smit.',
    unshare: 'Stop sharing with Lotte Smit',
    unshared: 'No longer shared with Lotte Smit.',
  },
} as const;

async function shot(page: Page, name: string) {
  const dir = process.env.COLLEAGUES_SHOTS;
  if (!dir) return;
  // A closing menu or a toast fading in would show half drawn.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

/** The side menu's entries: at the narrow width behind the app bar's menu button. */
async function openMenu(page: Page, width: number, lang: keyof typeof WORDS) {
  if (width < 600) await page.getByRole('button', { name: WORDS[lang].menu }).click();
}

/** A bearer token of `email` from its own request context (the page's session stays as it is). */
async function tokenOf(request: APIRequestContext, email: string): Promise<string> {
  const res = await request.post('/api/auth/login', { data: { username: email, password: DEMO_PASSWORD } });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Lotte's membership of Jansen BV and the role ids by English name, as the admin reads them. */
async function lottesMembership(page: Page, token: string) {
  const me = await api(page, token, 'GET', '/auth/me');
  const jansen = (me.user.companies as { id: number; name: string }[]).find((c) => c.name === 'Jansen BV')!;
  const members = await api(page, token, 'GET', '/company-user?with[]=client');
  const lotte = (members.data as { id: number; company_id: number; client: { email: string } }[]).find(
    (m) => m.company_id === jansen.id && m.client.email === MEMBER,
  )!;
  const roles = await page.request.get('/api/company-roles', {
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
  });
  const byName = new Map(
    ((await roles.json()) as { data: { id: number; name: string }[] }).data.map((r) => [r.name, r.id]),
  );
  return { jansen: jansen.id, membership: lotte.id, member: byName.get('Member')! };
}

for (const { lang, width } of RUNS) {
  const w = WORDS[lang];
  const at = `${lang}-${width}`;

  /** The invoices' address, opened by a client whose roles reach no invoices: the access-denied page. */
  const invoicesRefused = async (page: Page) => {
    await page.goto('/app/invoices');
    await expect(page).toHaveURL(/\/app\/403\?/);
    expect(new URL(page.url()).searchParams.get('r')).toBe('invoices.index');
    await expect(page.getByRole('heading', { level: 1, name: w.denied })).toBeVisible();
  };

  test(
    inLanguage(lang, `a company admin makes a member finance: she sees the invoices then, at ${width} px`),
    async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await startIn(page, lang);
      // As a member, Lotte's role reaches no invoices: the portal offers her no such screen.
      await storeSession(page, MEMBER, { locale: lang });
      await invoicesRefused(page);

      const admin = await storeSession(page, ADMIN, { locale: lang });
      const { membership, member } = await lottesMembership(page, admin);
      try {
        await page.goto('/app/tickets');
        await openMenu(page, width, lang);
        await page.getByRole('menuitem', { name: w.colleagues }).click();
        await expect(page).toHaveURL(/\/app\/company-user$/);
        await expect(page.getByRole('heading', { level: 1, name: w.colleagues })).toBeVisible();
        await expect(page).toHaveTitle(new RegExp(`^${w.colleagues} - `));
        // His own row shows his role without a choice; hers has one.
        await expect(page.getByText(w.you)).toBeVisible();
        await expect(page.getByText(MEMBER)).toBeVisible();
        const role = page.getByRole('combobox', { name: w.roleOf });
        await expect(role).toHaveText(w.member);
        await expect(page.getByRole('combobox')).toHaveCount(1);
        await expectAccessible(page, 'the colleagues screen');
        await shot(page, `colleagues-${at}`);
        await role.click();
        await page.getByRole('option', { name: w.finance, exact: true }).click();
        await expect(page.getByText(w.madeFinance)).toBeVisible();
        await expect(role).toHaveText(w.finance);
        await expect(page.getByRole('listbox')).toHaveCount(0);
        await shot(page, `colleagues-changed-${at}`);

        // Lotte, now finance, sees the company's invoices.
        await storeSession(page, MEMBER, { locale: lang });
        await page.goto('/app/invoices');
        await expect(page.getByRole('status').filter({ hasText: w.counter })).toBeVisible();
        await expect(page.getByRole('heading', { level: 1, name: w.denied })).toHaveCount(0);
        await expectAccessible(page, 'her invoices as finance');
        await shot(page, `finance-invoices-${at}`);

        // He makes her a member again, on the same screen: the invoices are gone for her.
        await storeSession(page, ADMIN, { locale: lang });
        await page.goto('/app/company-user');
        await page.getByRole('combobox', { name: w.roleOf }).click();
        await page.getByRole('option', { name: w.member, exact: true }).click();
        await expect(page.getByText(w.madeMember)).toBeVisible();
        await storeSession(page, MEMBER, { locale: lang });
        await invoicesRefused(page);
      } finally {
        // Whatever failed above, she is a member again for the other specs of this worker.
        await api(page, admin, 'PUT', `/company-user/${membership}`, { company_role_id: member });
      }
    },
  );

  test(
    inLanguage(lang, `a member has no colleagues entry, and its address is refused, at ${width} px`),
    async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await startIn(page, lang);
      await storeSession(page, MEMBER, { locale: lang });
      await page.goto('/app/tickets');
      await openMenu(page, width, lang);
      await expect(page.getByRole('menuitem', { name: w.tickets })).toBeVisible();
      await expect(page.getByRole('menuitem', { name: w.colleagues })).toHaveCount(0);
      await page.keyboard.press('Escape');

      await page.goto('/app/company-user');
      await expect(page).toHaveURL(/\/app\/403\?/);
      expect(new URL(page.url()).searchParams.get('r')).toBe('company-user.index');
      await expect(page.getByRole('heading', { level: 1, name: w.denied })).toBeVisible();
      await expectAccessible(page, 'the colleagues screen refused to a member');
      await shot(page, `member-refused-${at}`);
    },
  );

  test(
    inLanguage(lang, `a company admin shares a ticket with a member, who then sees it, at ${width} px`),
    async ({ page, request }) => {
      await page.setViewportSize({ width, height: 900 });
      await startIn(page, lang);
      const admin = await storeSession(page, ADMIN, { locale: lang });
      const { jansen } = await lottesMembership(page, admin);
      const priorities = await api(page, admin, 'GET', '/priorities');
      const description = `Scanner ${at} ${Date.now() % 100_000}`;
      const ticket = await api(page, admin, 'POST', '/tickets', {
        description,
        priority_id: priorities.data[0].id,
        company_id: jansen,
        custom_fields: { impact: 'department' },
      });
      const lotte = await tokenOf(request, MEMBER);
      const asLotte = () =>
        request.get(`/api/tickets/${ticket.id}`, { headers: { authorization: `Bearer ${lotte}` } });
      expect((await asLotte()).status()).toBe(404);

      await page.goto(`/app/tickets/${ticket.id}`);
      const card = page.getByRole('region', { name: w.sharedWith });
      await expect(card.getByText(w.none)).toBeVisible();
      await expectAccessible(page, 'a ticket of his, shared with nobody yet');
      await shot(page, `share-form-${at}`);
      await card.getByRole('combobox', { name: w.colleague }).click();
      await page.getByRole('option', { name: 'Lotte Smit' }).click();
      await card.getByRole('button', { name: w.share, exact: true }).click();
      await expect(page.getByText(w.shared)).toBeVisible();
      await expect(card.getByRole('button', { name: w.unshare })).toBeVisible();
      await expect(card.getByText(w.none)).toHaveCount(0);
      await expectAccessible(page, 'the ticket shared with a colleague');
      await shot(page, `shared-${at}`);

      // Lotte finds it in her list and opens it.
      await storeSession(page, MEMBER, { locale: lang });
      await page.goto('/app/tickets');
      await page.getByText(description).first().click();
      await expect(page).toHaveURL(new RegExp(`/app/tickets/${ticket.id}$`));
      await expect(page.getByText(description).first()).toBeVisible();
      // Shared with her, it is not hers to share on: she sees who it is shared with, no choice.
      await expect(page.getByRole('region', { name: w.sharedWith })).toBeVisible();
      await expect(page.getByRole('combobox', { name: w.colleague })).toHaveCount(0);
      await expectAccessible(page, 'the member sees the ticket shared with her');
      await shot(page, `member-sees-shared-${at}`);

      // He ends the share: the ticket is gone for her again.
      await storeSession(page, ADMIN, { locale: lang });
      await page.goto(`/app/tickets/${ticket.id}`);
      await page.getByRole('region', { name: w.sharedWith }).getByRole('button', { name: w.unshare }).click();
      await expect(page.getByText(w.unshared)).toBeVisible();
      await expect(page.getByRole('region', { name: w.sharedWith }).getByText(w.none)).toBeVisible();
      expect((await asLotte()).status()).toBe(404);
    },
  );
}
