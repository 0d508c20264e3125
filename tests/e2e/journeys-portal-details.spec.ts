/**
 * Issue 14, items 4, 5, 6 and 8, as client@example.com (and other@example.com for long references): at
 * 375 px the detail tables reflow so the page never scrolls sideways and totals stay in view; mobile
 * invoice cards carry the download; contract periods read DD-MM-YYYY and their time registrations name
 * and link their ticket; invoice references keep their month. Records come from the API (read only:
 * nothing here writes). Each test in one language (nl, en or de; the labels it reads are asserted in all
 * three at their catalogue keys in tests/browser/journey-wording-records.test.ts).
 *
 * axe: the quote, subscription and asset details and the invoice cards at 375 px are the demo's plain
 * screens, which the translation sweep scans at that width; the contract's periods with their ticket
 * links are scanned here (the sweep opens only the first contract of the list).
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, inLanguage, signIn, startIn } from './support.ts';

const CLIENT = 'client@example.com';
const OTHER = 'other@example.com';
const PHONE = { width: 375, height: 800 };
const DESKTOP = { width: 1280, height: 900 };

async function records(request: APIRequestContext, email: string, path: string): Promise<any[]> {
  const auth = await request.post('/api/auth/login', { data: { username: email, password: 'demo' } });
  expect(auth.ok()).toBe(true);
  const res = await request.get(`/api/${path}`, {
    headers: { authorization: `Bearer ${(await auth.json()).access_token}` },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()).data;
}

/** The page does not scroll sideways, and the element is inside the viewport's width. */
async function expectFitsTheScreen(page: Page, testId: string) {
  const el = page.getByTestId(testId);
  await expect(el).toBeVisible();
  // Scrolled down to, it is wholly on screen: nothing of it lies beyond the right edge.
  await el.scrollIntoViewIfNeeded();
  await expect(el).toBeInViewport({ ratio: 1 });
  const box = (await el.boundingBox())!;
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(innerWidth);
}

async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement!.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

const TEXT = {
  nl: {
    quoteTotal: 'Totaal',
    monthly: 'Maandbedrag',
    details: 'Details',
    serial: 'Serienummer',
    download: (code: string) => `Factuur ${code} downloaden`,
    downloadColumn: 'Downloaden',
    openEnd: 'Geen einddatum',
    registrations: 'Urenregistraties',
  },
  en: {
    quoteTotal: 'Total',
    monthly: 'Monthly amount',
    details: 'Details',
    serial: 'Serial number',
    download: (code: string) => `Download invoice ${code}`,
    downloadColumn: 'Download',
    openEnd: 'No end date',
    registrations: 'Time registrations',
  },
  de: {
    quoteTotal: 'Gesamtbetrag',
    monthly: 'Monatsbetrag',
    details: 'Details',
    serial: 'Seriennummer',
    download: (code: string) => `Rechnung ${code} herunterladen`,
    downloadColumn: 'Herunterladen',
    openEnd: 'Kein Enddatum',
    registrations: 'Zeiterfassungen',
  },
} as const;

/** 'YYYY-MM-DD' as SPEC 9's period format 'DD-MM-YYYY'. */
const periodDate = (iso: string) => iso.slice(0, 10).split('-').reverse().join('-');

test.describe('portal details at 375 px', () => {
  test.use({ viewport: PHONE });

  test(inLanguage('nl', 'quote lines reflow; the quote total is in view'), async ({ page }) => {
    const lang = 'nl';
    const t = TEXT[lang];
    await startIn(page, lang);
    const quote = (await records(page.request, CLIENT, 'quotes'))[0];
    await signIn(page, CLIENT, 'portal', { to: `/app/quotes/${quote.id}` });
    await expectFitsTheScreen(page, 'quote-total');
    // The quote's total in euros with two decimals ('€ 1.767,20', '€1,767.20'), not cut off.
    const total = await page.getByTestId('quote-total').innerText();
    expect(total).toMatch(/^€\s?[\d.,]+[.,]\d{2}$/);
    expect(total.replace(/\D/g, '')).toBe(Math.round(Number(quote.total) * 100).toString());
    await expect(
      page
        .locator('dt')
        .filter({ hasText: new RegExp(`^${t.quoteTotal}$`) })
        .last(),
    ).toBeVisible();
  });

  test(
    inLanguage('de', 'subscription lines reflow; the total and the monthly amount are in view'),
    async ({ page }) => {
      const lang = 'de';
      const t = TEXT[lang];
      await startIn(page, lang);
      const subscription = (await records(page.request, CLIENT, 'subscriptions'))[0];
      await signIn(page, CLIENT, 'portal', { to: `/app/subscriptions/${subscription.id}` });
      await expectFitsTheScreen(page, 'subscription-total');
      await expectFitsTheScreen(page, 'subscription-mrr');
      await expect(page.locator('dt').filter({ hasText: t.monthly })).toBeVisible();
    },
  );

  test(
    inLanguage('en', 'time registrations and asset details reflow inside the screen'),
    async ({ page }) => {
      const lang = 'en';
      const t = TEXT[lang];
      await startIn(page, lang);
      const contract = (await records(page.request, CLIENT, 'contracts')).find((c) => c.period !== 'none');
      const asset = (await records(page.request, CLIENT, 'assets')).find((a) => a.serial_number);
      await signIn(page, CLIENT, 'portal', { to: `/app/contracts/${contract.id}` });
      const list = page.getByRole('list', { name: t.registrations }).first();
      await expect(list).toBeVisible({ timeout: 30_000 });
      await expectNoSidewaysScroll(page);
      // Every value of a registration (the time spent is the last) lies inside the screen.
      const box = (await list.locator('dd').nth(4).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);

      await page.goto(`/app/assets/${asset.id}`);
      const details = page.getByRole('list', { name: t.details });
      await expect(details.locator('dt').filter({ hasText: t.serial })).toBeVisible({ timeout: 30_000 });
      await expect(details.locator('dd').filter({ hasText: asset.serial_number })).toBeInViewport();
      await expectNoSidewaysScroll(page);
    },
  );

  test(
    inLanguage('de', 'each invoice card carries the download button of the desktop list'),
    async ({ page }) => {
      const lang = 'de';
      const t = TEXT[lang];
      await startIn(page, lang);
      const invoices = await records(page.request, CLIENT, 'invoices');
      expect(invoices.length).toBeGreaterThan(0);
      await signIn(page, CLIENT, 'portal', { to: '/app/invoices' });
      const first = invoices[0];
      const button = page.getByRole('button', { name: t.download(first.code) });
      await expect(button).toBeVisible();
      for (const invoice of invoices)
        await expect(page.getByRole('button', { name: t.download(invoice.code) })).toHaveCount(1);
      await expect(page.locator('dt').filter({ hasText: new RegExp(`^${t.downloadColumn}$`) })).toHaveCount(
        invoices.length,
      );
      const download = page.waitForEvent('download');
      await button.click();
      expect((await download).suggestedFilename()).toBe(`${first.code}.pdf`);
      // The download did not open the card.
      await expect(page).toHaveURL(/\/app\/invoices$/);
      await expectNoSidewaysScroll(page);
    },
  );

  test(inLanguage('nl', 'invoice references keep their month on a card'), async ({ page }) => {
    await startIn(page, 'nl');
    const invoices = await records(page.request, OTHER, 'invoices');
    const long = invoices.filter((i) => String(i.reference).length > 35);
    expect(long.length, 'a reference longer than the generic limit of 35').toBeGreaterThan(0);
    await signIn(page, OTHER, 'portal', { to: '/app/invoices' });
    for (const invoice of long)
      await expect(page.getByText(invoice.reference, { exact: true }).first()).toBeVisible();
    await expectNoSidewaysScroll(page);
  });
});

test.describe('portal details at 1280 px', () => {
  test.use({ viewport: DESKTOP });

  test(
    inLanguage(
      'de',
      'contract periods read DD-MM-YYYY, a prepaid one start and end; registrations link their ticket',
    ),
    async ({ page }) => {
      const lang = 'de';
      const t = TEXT[lang];
      await startIn(page, lang);
      const contracts = await records(page.request, CLIENT, 'contracts');
      const monthly = contracts.find((c) => c.period !== 'none');
      const prepaid = contracts.find((c) => c.period === 'none');
      const periods = await records(
        page.request,
        CLIENT,
        `contract-periods?builder[0][where][0]=contract_id&builder[0][where][1]=${monthly.id}&builder[1][orderBy][0]=period_start&builder[1][orderBy][1]=desc`,
      );
      const [prepaidPeriod] = await records(
        page.request,
        CLIENT,
        `contract-periods?builder[0][where][0]=contract_id&builder[0][where][1]=${prepaid.id}`,
      );
      // The newest period with work on it: early in a month the current period has none yet.
      let registration: any;
      for (const period of periods) {
        [registration] = await records(
          page.request,
          CLIENT,
          `time-registrations?builder[0][where][0]=contract_period_id&builder[0][where][1]=${period.id}&builder[1][orderBy][0]=executed_at&builder[1][orderBy][1]=desc&with[0]=ticket`,
        );
        if (registration) break;
      }
      if (!registration) throw new Error('the demo contract has no time registrations');
      await signIn(page, CLIENT, 'portal', { to: `/app/contracts/${monthly.id}` });
      const heading = page.getByRole('article').first().getByRole('heading', { level: 3 });
      await expect(heading).toHaveText(
        `${periodDate(periods[0].period_start)} – ${periodDate(periods[0].period_end)}`,
      );
      await expect(heading).toHaveText(/^\d{2}-\d{2}-\d{4} – \d{2}-\d{2}-\d{4}$/);
      const link = page.getByRole('link', { name: registration.ticket.reference, exact: true }).first();
      await expect(link).toHaveAttribute('href', `/app/tickets/${registration.ticket_id}`);
      await expectAccessible(page, `the monthly contract's periods and their ticket links (${lang})`);
      await link.click();
      await expect(page).toHaveURL(new RegExp(`/app/tickets/${registration.ticket_id}$`));

      await page.goto(`/app/contracts/${prepaid.id}`);
      await expect(page.getByRole('article').first().getByRole('heading', { level: 3 })).toHaveText(
        `${periodDate(prepaidPeriod.period_start)} – ${t.openEnd}`,
      );
    },
  );

  test(
    inLanguage(
      'en',
      'a contract with several periods shows whole: its page does not grow after its heading appears',
    ),
    async ({ page }) => {
      await startIn(page, 'en');
      const contracts = await records(page.request, CLIENT, 'contracts');
      const monthly = contracts.find((c) => c.period !== 'none');
      const periods = await records(
        page.request,
        CLIENT,
        `contract-periods?builder[0][where][0]=contract_id&builder[0][where][1]=${monthly.id}`,
      );
      expect(periods.length, 'a contract of several periods').toBeGreaterThan(1);
      // The page's height in every frame from the first with a heading (the periods and each period's
      // time registrations are reads of their own: they used to add to the page one after another).
      await page.addInitScript(() => {
        const heights: number[] = [];
        (window as unknown as { heights: number[] }).heights = heights;
        const sample = () => {
          if (document.querySelector('h1')) heights.push(document.documentElement.scrollHeight);
          requestAnimationFrame(sample);
        };
        requestAnimationFrame(sample);
      });
      await signIn(page, CLIENT, 'portal', { to: `/app/contracts/${monthly.id}` });
      await expect(page.getByRole('article')).toHaveCount(periods.length);
      await expect(page.getByRole('article').last().locator('table, p')).not.toHaveCount(0);
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      );
      const heights = await page.evaluate(() => (window as unknown as { heights: number[] }).heights);
      expect(heights.length).toBeGreaterThan(2);
      expect([...new Set(heights)]).toEqual([heights[0]]);
    },
  );

  test(inLanguage('nl', 'invoice references keep their month in the table'), async ({ page }) => {
    await startIn(page, 'nl');
    const invoices = await records(page.request, OTHER, 'invoices');
    const long = invoices.filter((i) => String(i.reference).length > 35);
    expect(long.length, 'a reference longer than the generic limit of 35').toBeGreaterThan(0);
    await signIn(page, OTHER, 'portal', { to: '/app/invoices' });
    for (const invoice of long) {
      const row = page.getByRole('row').filter({ hasText: invoice.code });
      await expect(row.getByRole('cell', { name: invoice.reference, exact: true })).toBeVisible();
    }
  });
});
