/**
 * Issue 39, item 2: the client reads the hours of a contract as a bar and a number, on the contract's
 * page (each period) and on a ticket of the company (each running contract's current period); a prepaid
 * card below its threshold says so and offers to buy more, which opens the contract with its upgrade form
 * in view and focus (the address the low-balance mail links). Axe-clean at 1280 and 375 px, in Dutch and
 * English (screenshots in /tmp/shots-balance/). The back office's ticket shows the same card; its "buy
 * more" opens the contract with the upgrade dialog open. The low-balance mail reaches a loopback SMTP
 * server, and its link, opened signed out, leads through the login form to the upgrade form.
 *
 * A server of its own, on a copy of the demo whose prepaid card 'Strippenkaart Jansen BV' has 1 of its
 * 10 hours left: the worker's demo server keeps the figures other specs read.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, inLanguage, signIn, startIn, submitLogin, type Lang } from './support.ts';
import { freePort, SEEDED_DIR_ENV, startServer, type E2eServer } from './server.ts';
import { recipients, startSmtp, type LoopbackSmtp, type ParsedMail } from '../api/smtp.ts';
import { openDatabase } from '../../server/db/database.ts';

const CLIENT = 'client@example.com';
const PREPAID = 'Strippenkaart Jansen BV';

const WORDS = {
  nl: {
    bar: `Resterende uren van ${PREPAID}`,
    remaining: 'Nog 01:00 van 10:00 uur over',
    used: '09:00 gebruikt',
    low: 'Bijna op',
    title: 'Contracturen',
    buy: 'Meer uren kopen',
    upgrade: 'Strippenkaart opwaarderen',
  },
  en: {
    bar: `Hours remaining of ${PREPAID}`,
    remaining: '01:00 of 10:00 hours remaining',
    used: '09:00 used',
    low: 'Running low',
    title: 'Contract hours',
    buy: 'Buy more hours',
    upgrade: 'Upgrade prepaid card',
  },
};

test.describe.configure({ mode: 'serial' });

let server: E2eServer;
let smtp: LoopbackSmtp;
let seeded: string;
let contractId: number;
let ticketId: number;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  seeded = mkdtempSync(join(tmpdir(), 'sd-e2e-balance-'));
  cpSync(process.env[SEEDED_DIR_ENV]!, seeded, { recursive: true });
  const database = await openDatabase({ dataDir: join(seeded, 'pglite') });
  const contract = await database.db
    .selectFrom('contracts')
    .select('id')
    .where('name', '=', PREPAID)
    .executeTakeFirstOrThrow();
  contractId = Number(contract.id);
  // The card's current period: 9 of its 10 hours used, 10 % left, under the default 20 %.
  await database.db
    .updateTable('contract_periods')
    .set({ minutes_total: 600, registered_time: 540, minutes_remaining: 60 })
    .where('contract_id', '=', contractId)
    .execute();
  await database.db
    .updateTable('contracts')
    .set({ minutes_remaining: 60, quantity: 10 })
    .where('id', '=', contractId)
    .execute();
  const ticket = await database.db
    .selectFrom('tickets as t')
    .innerJoin('company_contract as cc', 'cc.company_id', 't.company_id')
    .select('t.id')
    .where('cc.contract_id', '=', contractId)
    .orderBy('t.id')
    .executeTakeFirstOrThrow();
  ticketId = Number(ticket.id);
  await database.close();
  // The deadline loop sends the low-balance alert (server/reports/balance-alerts.ts) to the loopback
  // SMTP server, its link on this server's own address.
  smtp = await startSmtp();
  const port = await freePort();
  server = await startServer(
    {
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: smtp.url,
      MAIL_POLL_MS: '500',
      DEADLINE_CHECK_MS: '1000',
    },
    { seeded, port },
  );
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  if (seeded) rmSync(seeded, { recursive: true, force: true });
});

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/shots-balance/${name}.png`, fullPage: true });
}

async function journey(browser: Browser, lang: Lang & keyof typeof WORDS) {
  const w = WORDS[lang];
  const page = await browser.newPage({ baseURL: server.baseURL });
  try {
    await startIn(page, lang);
    // The ticket: the company's contracts with their bars; the low card offers to buy more.
    await signIn(page, CLIENT, 'portal', { to: `/app/tickets/${ticketId}`, locale: lang });
    const card = page.getByRole('region', { name: w.title });
    await expect(card).toBeVisible();
    const bar = card.getByRole('progressbar', { name: w.bar });
    await expect(bar).toHaveAttribute('aria-valuenow', '10');
    await expect(bar).toHaveAttribute('aria-valuetext', w.remaining);
    const prepaid = card.getByRole('article', { name: PREPAID });
    await expect(prepaid.getByText(w.remaining)).toBeVisible();
    await expect(prepaid.getByText(w.used)).toBeVisible();
    await expect(prepaid.getByText(w.low, { exact: true })).toBeVisible();
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(bar).toBeVisible();
      await expectAccessible(page, `ticket balance, ${width} px, ${lang}`);
      await shoot(page, `ticket-${lang}-${width}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `the page fits ${width} px`).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // Buy more: the contract with its upgrade form in view, its first card focused.
    await prepaid.getByRole('link', { name: w.buy }).click();
    await expect(page).toHaveURL(new RegExp(`/app/contracts/${contractId}\\?upgrade=1$`));
    const upgrade = page.getByRole('region', { name: w.upgrade });
    await expect(upgrade).toBeVisible();
    await expect(upgrade.getByRole('radio').first()).toBeFocused();
    await expect(upgrade).toBeInViewport();

    // The contract page: each period its bar.
    const periodBar = page.getByRole('progressbar', { name: w.bar });
    await expect(periodBar).toHaveCount(1);
    await expect(periodBar).toHaveAttribute('aria-valuetext', w.remaining);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/app/contracts/${contractId}`);
      await expect(periodBar).toBeVisible();
      await expectAccessible(page, `contract balance, ${width} px, ${lang}`);
      await shoot(page, `contract-${lang}-${width}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `the page fits ${width} px`).toBeLessThanOrEqual(0);
    }
  } finally {
    await page.close();
  }
}

test(
  inLanguage('nl', 'a client reads the hours as a bar and a number and buys more from a low card'),
  async ({ browser }) => {
    await journey(browser, 'nl');
  },
);

test(
  inLanguage('en', 'a client reads the hours as a bar and a number and buys more from a low card'),
  async ({ browser }) => {
    await journey(browser, 'en');
  },
);

test(
  inLanguage('nl', "an operator reads the hours on the back office's ticket and opens the upgrade"),
  async ({ browser }) => {
    const w = WORDS.nl;
    const page = await browser.newPage({ baseURL: server.baseURL });
    try {
      await startIn(page, 'nl');
      await signIn(page, 'admin@example.com', 'backoffice', { to: `/tickets/${ticketId}` });
      const card = page.getByRole('region', { name: w.title });
      const bar = card.getByRole('progressbar', { name: w.bar });
      await expect(bar).toHaveAttribute('aria-valuetext', w.remaining);
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await expect(bar).toBeVisible();
        await expectAccessible(page, `back office ticket balance, ${width} px, nl`);
        await shoot(page, `backoffice-ticket-nl-${width}`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await card.getByRole('article', { name: PREPAID }).getByRole('link', { name: w.buy }).click();
      await expect(page).toHaveURL(new RegExp(`/contracts/${contractId}\\?upgrade=1$`));
      await expect(page.getByRole('dialog', { name: w.upgrade })).toBeVisible();
    } finally {
      await page.close();
    }
  },
);

test(
  inLanguage(
    'nl',
    "the low-balance mail's link, opened signed out, leads through the login to the upgrade form",
  ),
  async ({ browser }) => {
    const link = `${server.baseURL}/app/contracts/${contractId}?upgrade=1`;
    const isAlert = (mail: ParsedMail) => recipients(mail).includes(CLIENT) && !!mail.text?.includes(link);
    let mail = smtp.received.find(isAlert);
    for (let n = smtp.received.length; !mail; n++) {
      const next = await smtp.next(n);
      if (isAlert(next)) mail = next;
    }
    const page = await browser.newPage({ baseURL: server.baseURL });
    try {
      await startIn(page, 'nl');
      await page.goto(link);
      await expect(page).toHaveURL(/\/app\/login/);
      await submitLogin(page, CLIENT);
      await expect(page).toHaveURL(new RegExp(`/app/contracts/${contractId}\\?upgrade=1$`));
      const upgrade = page.getByRole('region', { name: WORDS.nl.upgrade });
      await expect(upgrade).toBeInViewport();
      await expect(upgrade.getByRole('radio').first()).toBeFocused();
    } finally {
      await page.close();
    }
  },
);
