/**
 * The satisfaction survey (issue 39, item 3) from the client's side: an operator resolves a ticket, the
 * mail reaches a real (loopback) SMTP server, and the rating link in it opens the survey page without a
 * login, with that rating chosen; one click sends it, and the link is spent. In Dutch and English, at
 * 1280 and 375 px, checked with axe.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test as base } from './fixtures.ts';
import { recipients, startSmtp, type LoopbackSmtp, type ParsedMail } from '../api/smtp.ts';
import { freePort, startServer, type E2eServer } from './server.ts';
import { api, bearerOf, expectAccessible, inLanguage, startIn, type Lang } from './support.ts';

const CLIENT = 'client@example.com';
const ADMIN = 'admin@example.com';

/** The demo server of this file: PUBLIC_URL its own address (the mail's links), SMTP_URL the loopback. */
const test = base.extend<object, { desk: { server: E2eServer; smtp: LoopbackSmtp } }>({
  desk: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const smtp = await startSmtp();
      const port = await freePort();
      const server = await startServer(
        { PUBLIC_URL: `http://127.0.0.1:${port}`, SMTP_URL: smtp.url, MAIL_POLL_MS: '500' },
        { port },
      );
      await use({ server, smtp });
      await server.stop();
      await smtp.close();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ desk }, use) => use(desk.server.baseURL),
});

/** Turns the survey on, makes a ticket of the demo client and resolves it; answers its reference. */
async function resolveATicket(request: APIRequestContext, description: string): Promise<string> {
  const admin = await bearerOf(request, ADMIN);
  const settings = (await api(request, admin, 'GET', '/config')).data as { name: string }[];
  if (!settings.some((c) => c.name === 'satisfaction_survey'))
    await api(request, admin, 'POST', '/config', { name: 'satisfaction_survey', value: 'on' });
  const clientToken = await bearerOf(request, CLIENT);
  const client = (await api(request, clientToken, 'GET', '/auth/me')).user as { id: number };
  const company = (await api(request, clientToken, 'GET', '/companies')).data[0] as { id: number };
  const ticket = await api(request, admin, 'POST', '/tickets', {
    description,
    client_id: client.id,
    company_id: company.id,
  });
  await api(request, admin, 'POST', `/tickets/${ticket.id}/close`, {});
  return String(ticket.reference);
}

/** The link of `rating` in the mail's text. */
function ratingLink(mail: ParsedMail, origin: string, rating: number): string {
  const match = new RegExp(`${origin}/app/survey/[A-Za-z0-9_-]+\\?rating=${rating}`).exec(mail.text ?? '');
  if (!match) throw new Error(`no rating link in: ${mail.text}`);
  return match[0];
}

async function bothSizes(page: Page, where: string, lang: Lang) {
  await expectAccessible(page, `${where} (1280 px)`);
  await page.screenshot({ path: `test-results/survey-${where.replace(/\W+/g, '-')}-${lang}-1280.png` });
  await page.setViewportSize({ width: 375, height: 800 });
  await expectAccessible(page, `${where} (375 px)`);
  await page.screenshot({ path: `test-results/survey-${where.replace(/\W+/g, '-')}-${lang}-375.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
}

const WORDS = {
  nl: {
    title: 'Tevredenheidsonderzoek',
    bad: 'Slecht',
    good: 'Goed',
    send: 'Beoordeling versturen',
    thanks: 'Bedankt voor je beoordeling.',
    answered: 'Dit onderzoek is al beantwoord: bedankt.',
    optOut: 'Stuur me geen onderzoeken meer',
    optedOut: 'Je krijgt geen tevredenheidsonderzoeken meer.',
  },
  en: {
    title: 'Satisfaction survey',
    bad: 'Bad',
    good: 'Good',
    send: 'Send rating',
    thanks: 'Thank you for your rating.',
    answered: 'This survey has already been answered: thank you.',
    optOut: "Don't send me these surveys any more",
    optedOut: 'You will get no more satisfaction surveys.',
  },
} as const;

for (const [lang, rating, word] of [
  ['nl', 1, 'bad'],
  ['en', 3, 'good'],
] as const) {
  test(
    inLanguage(lang, 'the rating link of the mail rates the ticket once, without a login'),
    async ({ page, desk }) => {
      const words = WORDS[lang];
      const before = desk.smtp.received.length;
      const reference = await resolveATicket(page.request, `Survey ${lang}: de printer is stuk`);
      let mail = await desk.smtp.next(before);
      // Other mails (an operator's notification) may come first: the client's survey is the one.
      for (let n = before + 1; !(recipients(mail).includes(CLIENT) && mail.subject?.includes(reference)); n++)
        mail = await desk.smtp.next(n);
      expect(mail.subject).toBe(`Hoe hebben we ticket ${reference} opgelost?`);
      const link = ratingLink(mail, desk.server.baseURL, rating);

      await startIn(page, lang);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1, name: words.title })).toBeVisible();
      await expect(page.getByText(reference, { exact: false })).toBeVisible();
      // The link's rating is chosen, nothing sent yet.
      const chosen = page.getByRole('radio', { name: words[word] });
      await expect(chosen).toBeChecked();
      await bothSizes(page, 'survey form', lang);

      await page.getByRole('textbox').fill(lang === 'nl' ? 'Het duurde lang' : 'Quick and friendly');
      await page.getByRole('button', { name: words.send }).click();
      await expect(page.getByRole('status')).toHaveText(words.thanks);
      await bothSizes(page, 'survey sent', lang);

      // The link is spent: opened again, it says the survey was answered.
      await page.goto(link);
      await expect(page.getByRole('status')).toHaveText(words.answered);
      await expect(page.getByRole('button', { name: words.send })).toHaveCount(0);

      // No more surveys: asked on the page, said in place of the button; the next test's client gets
      // its survey again (the opt-out is undone through the API).
      await page.getByRole('button', { name: words.optOut }).click();
      await expect(page.getByRole('status').filter({ hasText: words.optedOut })).toBeVisible();
      await expectAccessible(page, 'survey opted out');
      const admin = await bearerOf(page.request, ADMIN);
      const client = (await api(page.request, await bearerOf(page.request, CLIENT), 'GET', '/auth/me')).user;
      expect((await api(page.request, admin, 'GET', `/clients/${client.id}`)).survey_opt_out).toBe(true);
      await api(page.request, admin, 'PUT', `/clients/${client.id}`, { survey_opt_out: false });
    },
  );
}
