/**
 * Issue 39, item 3: the satisfaction report on the reports page. Four tickets of the demo client are
 * resolved on a server of this file's own (PUBLIC_URL set: no survey mail without it), and rated through
 * the links of their real mails (a loopback SMTP server): good, neutral and bad on the three-word scale
 * by the admin's tickets, then 5 of 5 on the 1 to 5 scale by the first-line operator's. A second-line
 * operator opens the report's tab and reads those figures per operator, then switches to per company,
 * where the four are one row. In Dutch at 1280 px and in English at 375 px, axe-clean.
 */
import { request, type APIRequestContext, type Page } from '@playwright/test';
import { expect, test as base } from './fixtures.ts';
import { recipients, startSmtp } from '../api/smtp.ts';
import { freePort, startServer, type E2eServer } from './server.ts';
import { api, bearerOf, expectAccessible, inLanguage, signIn, startIn } from './support.ts';

const ADMIN = 'admin@example.com';
const OPERATOR = 'operator@example.com';
const CLIENT = 'client@example.com';

/** The server of this file, its ratings made once (the worker's two tests read the same). */
const test = base.extend<
  object,
  { rated: { server: E2eServer; names: { admin: string; operator: string } } }
>({
  rated: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const smtp = await startSmtp();
      const port = await freePort();
      const server = await startServer(
        { PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url, MAIL_POLL_MS: '500' },
        { port },
      );
      const context = await request.newContext({ baseURL: server.baseURL });
      const names = await rateFour(context, server.baseURL, smtp);
      await context.dispose();
      await use({ server, names });
      await server.stop();
      await smtp.close();
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ rated }, use) => use(rated.server.baseURL),
});

/**
 * The survey on, then per rating a ticket of the demo client with its operator, resolved; the client's
 * mail's link of that rating is followed as the survey page does (its token, POSTed with the rating).
 */
async function rateFour(
  request: APIRequestContext,
  origin: string,
  smtp: Awaited<ReturnType<typeof startSmtp>>,
): Promise<{ admin: string; operator: string }> {
  const admin = await bearerOf(request, ADMIN);
  await api(request, admin, 'POST', '/config', { name: 'satisfaction_survey', value: 'on' });
  // One session per account: each user's /auth/me with the token already held.
  const me = async (token: string) => (await api(request, token, 'GET', '/auth/me')).user as { id: number };
  const clientToken = await bearerOf(request, CLIENT);
  const client = await me(clientToken);
  const company = (await api(request, clientToken, 'GET', '/companies')).data[0] as { id: number };
  const [adminUser, operatorUser] = [await me(admin), await me(await bearerOf(request, OPERATOR))];
  const ratings: [number, number][] = [
    [adminUser.id, 3],
    [adminUser.id, 2],
    [adminUser.id, 1],
  ];
  let seen = 0;
  const rate = async (operatorId: number, rating: number) => {
    const ticket = await api(request, admin, 'POST', '/tickets', {
      description: `Tevredenheid e2e ${rating}`,
      client_id: client.id,
      company_id: company.id,
      operator_id: operatorId,
    });
    await api(request, admin, 'POST', `/tickets/${ticket.id}/close`, {});
    // Other mails (an operator's notification) may come first: the client's survey is the one.
    let mail = await smtp.next(seen++);
    while (!(recipients(mail).includes(CLIENT) && mail.subject?.includes(String(ticket.reference))))
      mail = await smtp.next(seen++);
    const link = new RegExp(`${origin}/app/survey/([A-Za-z0-9_-]+)\\?rating=${rating}`).exec(mail.text ?? '');
    expect(link, mail.text).not.toBeNull();
    const res = await request.post(`/api/surveys/${link![1]}`, { data: { rating } });
    expect(res.ok(), await res.text()).toBe(true);
  };
  for (const [operatorId, rating] of ratings) await rate(operatorId, rating);
  // The tenant turns to the 1 to 5 scale: the next mail's links rate 1 to 5.
  await api(request, admin, 'POST', '/config', { name: 'satisfaction_scale', value: '5' });
  await rate(operatorUser.id, 5);
  const nameOf = async (id: number) =>
    ((await api(request, admin, 'GET', `/operators/${id}`)) as { full_name: string }).full_name;
  return { admin: await nameOf(adminUser.id), operator: await nameOf(operatorUser.id) };
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/shots-satisfaction/${name}.png`, fullPage: true });
}

const WORDS = {
  nl: {
    tab: 'Tevredenheid',
    per: 'Per Operator',
    company: 'Bedrijf',
    table: (key: string) => `Beoordelingen per maand en per ${key}, en in totaal`,
    operator: 'operator',
    companyKey: 'bedrijf',
    total: 'Totaal',
    average: 'Gemiddeld (1-5)',
  },
  en: {
    tab: 'Satisfaction',
    per: 'Per Operator',
    company: 'Company',
    table: (key: string) => `Ratings per month and per ${key}, and in total`,
    operator: 'operator',
    companyKey: 'company',
    total: 'Total',
    average: 'Average (1-5)',
  },
} as const;

/** A row's cells after its month: the name, rated, good, neutral, bad, average, share good. */
const cellsOf = (row: ReturnType<Page['getByRole']>) => row.getByRole('cell');

for (const [lang, width] of [
  ['nl', 1280],
  ['en', 375],
] as const) {
  test(
    inLanguage(lang, 'a second-line operator reads the ratings per operator, then per company'),
    async ({ page, rated }) => {
      const words = WORDS[lang];
      const share = (n: string) => (lang === 'nl' ? n.replace('.', ',') : n);
      await page.setViewportSize({ width, height: 900 });
      await startIn(page, lang);
      await signIn(page, ADMIN, 'backoffice', { to: '/reports' });
      await page.getByRole('tab', { name: words.tab }).click();
      await expect(page).toHaveURL(/tab=satisfaction/);
      // The ticket report's own controls (grouping, line, filters) are not this report's.
      await expect(page.getByRole('combobox', { name: /^(Per Week|Lijn|Line)/ })).toHaveCount(0);

      const perOperator = page.getByRole('table', { name: words.table(words.operator) });
      // A header row, the admin's and the operator's rows of this month, and the total.
      await expect(perOperator.getByRole('row')).toHaveCount(4);
      await expect(perOperator.getByRole('columnheader', { name: words.average })).toBeVisible();
      const adminRow = perOperator.getByRole('row').filter({ hasText: rated.names.admin });
      await expect(cellsOf(adminRow)).toHaveText([
        rated.names.admin,
        '3',
        '1',
        '1',
        '1',
        '–',
        share('33.3%'),
      ]);
      const operatorRow = perOperator.getByRole('row').filter({ hasText: rated.names.operator });
      await expect(cellsOf(operatorRow)).toHaveText([rated.names.operator, '1', '1', '0', '0', '5', '100%']);
      const total = perOperator.getByRole('row', { name: new RegExp(`^${words.total}`) });
      await expect(cellsOf(total)).toHaveText(['', '4', '2', '1', '1', '5', '50%']);
      await expectAccessible(page, `reports, satisfaction per operator, ${width} px, ${lang}`);
      await shot(page, `satisfaction-operator-${lang}-${width}`);

      await page.getByRole('combobox', { name: words.per }).click();
      await page.getByRole('option', { name: words.company }).click();
      await expect(page).toHaveURL(/satisfaction_by=company/);
      const perCompany = page.getByRole('table', { name: words.table(words.companyKey) });
      await expect(perCompany.getByRole('row')).toHaveCount(3);
      await expect(cellsOf(perCompany.getByRole('row').nth(1)).nth(1)).toHaveText('4');
      await expect(cellsOf(perCompany.getByRole('row').nth(1)).last()).toHaveText('50%');
      await expectAccessible(page, `reports, satisfaction per company, ${width} px, ${lang}`);
      await shot(page, `satisfaction-company-${lang}-${width}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `the page fits ${width} px`).toBeLessThanOrEqual(0);
    },
  );
}
