/**
 * Issue 14, items 7 and 10: SPEC 4's badges, on Playwright's clock so that the colours do not depend on
 * today. Each test in one language (nl, en or de; the badges' wording in all three is asserted at its
 * catalogue key in tests/browser/journey-wording-records.test.ts). Due date: red when past, yellow when
 * upcoming (within 30 days, see docs/decisions.md), no colour further away, a check mark without a date
 * (named for a warranty).
 * Contract end: green when set, yellow within a month, red when past; no badge without an end date.
 * The back office shows them on ticket deadlines, invoice due dates and contract end dates, in lists
 * and details (schemas' x-badge). Records are created here, with dates far from today.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { inLanguage, signIn, startIn, type Lang } from './support.ts';

const TEXT = {
  nl: {
    past: 'Verlopen',
    upcoming: 'Binnenkort',
    noDueDate: 'Geen deadline',
    noWarranty: 'Geen garantiedatum bekend',
    running: 'Loopt',
    endsSoon: 'Loopt binnen een maand af',
    ended: 'Afgelopen',
    noEnd: 'Geen einddatum',
  },
  en: {
    past: 'Overdue',
    upcoming: 'Upcoming',
    noDueDate: 'No due date',
    noWarranty: 'No warranty date known',
    running: 'Running',
    endsSoon: 'Ends within a month',
    ended: 'Ended',
    noEnd: 'No end date',
  },
  de: {
    past: 'Überfällig',
    upcoming: 'Bald fällig',
    noDueDate: 'Keine Frist',
    noWarranty: 'Kein Garantiedatum bekannt',
    running: 'Läuft',
    endsSoon: 'Endet innerhalb eines Monats',
    ended: 'Beendet',
    noEnd: 'Kein Enddatum',
  },
} as const satisfies Record<Lang, Record<string, string>>;

/** The date every record below falls due or ends on, and the moments the tests look from. */
const DUE = '2031-06-30';
const TEN_DAYS_BEFORE = new Date('2031-06-20T12:00:00');
const FOURTEEN_MONTHS_BEFORE = new Date('2030-04-20T12:00:00');
const TWO_DAYS_AFTER = new Date('2031-07-02T12:00:00');

/**
 * The test starts in `lang` (support.ts: startIn) at `now`: the page's clock starts there and runs on (a
 * fixed time would stop the debounced list reloads, which measure time with Date.now); setSystemTime
 * moves it later.
 */
async function startAt(page: Page, lang: Lang, now: Date) {
  await page.clock.install({ time: now });
  await startIn(page, lang);
}

async function api(request: APIRequestContext, email: string) {
  const auth = await request.post('/api/auth/login', { data: { username: email, password: 'demo' } });
  expect(auth.ok()).toBe(true);
  const headers = { authorization: `Bearer ${(await auth.json()).access_token}` };
  return {
    create: async (resource: string, data: Record<string, unknown>) => {
      const res = await request.post(`/api/${resource}`, { headers, data });
      expect(res.ok(), await res.text()).toBe(true);
      return res.json();
    },
    list: async (path: string) => {
      const res = await request.get(`/api/${path}`, { headers });
      expect(res.ok()).toBe(true);
      return (await res.json()).data as any[];
    },
  };
}

/** The badge of a date field: its kind and colour as data-badge, its visible text. */
const badge = (scope: Page | ReturnType<Page['locator']>, kind: 'due-date' | 'contract-end') =>
  scope.locator(`[data-badge^="${kind}:"]`);

test.describe('date badges', () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  // Three screens, each seen at two or three moments: more than the default minute on a busy machine.
  test.describe.configure({ timeout: 120_000 });

  test(
    inLanguage(
      'nl',
      'back office: invoice due dates in the list and the detail; a paid invoice is not overdue',
    ),
    async ({ page }) => {
      const lang = 'nl';
      const t = TEXT[lang];
      const admin = await api(page.request, 'admin@example.com');
      const tag = `${lang}-${Date.now()}`;
      const open = await admin.create('invoices', {
        company_id: 1,
        code: `BADGE-O-${tag}`,
        reference: 'Badge open',
        date: '2031-06-01',
        due_date: DUE,
        status_id: 2,
      });
      const paid = await admin.create('invoices', {
        company_id: 1,
        code: `BADGE-P-${tag}`,
        reference: 'Badge paid',
        date: '2031-06-01',
        due_date: DUE,
        status_id: 4,
      });

      await startAt(page, lang, TWO_DAYS_AFTER);
      await signIn(page, 'admin@example.com', 'backoffice', { to: '/invoices' });
      const openRow = page.getByRole('row').filter({ hasText: open.code });
      await expect(openRow).toBeVisible({ timeout: 30_000 });
      await expect(badge(openRow, 'due-date')).toHaveAttribute('data-badge', 'due-date:red');
      await expect(badge(openRow, 'due-date')).toContainText(t.past);
      const paidRow = page.getByRole('row').filter({ hasText: paid.code });
      await expect(badge(paidRow, 'due-date')).toHaveAttribute('data-badge', 'due-date:none');
      await expect(paidRow).not.toContainText(t.past);

      await page.goto(`/invoices/${open.id}`);
      await expect(badge(page, 'due-date')).toHaveAttribute('data-badge', 'due-date:red');
      await expect(badge(page, 'due-date')).toContainText(t.past);

      await page.clock.setSystemTime(TEN_DAYS_BEFORE);
      await page.reload();
      await expect(badge(page, 'due-date')).toHaveAttribute('data-badge', 'due-date:yellow');
      await expect(badge(page, 'due-date')).toContainText(t.upcoming);

      // A due date 14 months away is not 'upcoming': the date alone.
      await page.clock.setSystemTime(FOURTEEN_MONTHS_BEFORE);
      await page.reload();
      await expect(badge(page, 'due-date')).toHaveAttribute('data-badge', 'due-date:none');
      await expect(badge(page, 'due-date')).not.toContainText(t.upcoming);
    },
  );

  test(
    inLanguage('en', 'back office: a ticket deadline and a contract end date, in the list and the detail'),
    async ({ page }) => {
      const lang = 'en';
      const t = TEXT[lang];
      const admin = await api(page.request, 'admin@example.com');
      const ticket = await admin.create('tickets', {
        description: `Badge deadline ${lang}`,
        company_id: 1,
        deadline: `${DUE}T10:00:00Z`,
      });
      const contract = await admin.create('contracts', {
        name: `Aaa badge contract ${lang} ${Date.now()}`,
        period: 'month',
        quantity: 8,
        start_date: '2030-01-01',
        end_date: DUE,
      });

      await startAt(page, lang, TEN_DAYS_BEFORE);
      await signIn(page, 'admin@example.com', 'backoffice', { to: `/tickets/${ticket.id}` });
      await expect(badge(page, 'due-date')).toHaveAttribute('data-badge', 'due-date:yellow', {
        timeout: 30_000,
      });
      await expect(badge(page, 'due-date')).toContainText(t.upcoming);

      await page.goto('/contracts');
      const row = page.getByRole('row').filter({ hasText: contract.name });
      await expect(row).toBeVisible({ timeout: 30_000 });
      await expect(badge(row, 'contract-end')).toHaveAttribute('data-badge', 'contract-end:yellow');
      await expect(badge(row, 'contract-end')).toContainText(t.endsSoon);
      await page.goto(`/contracts/${contract.id}`);
      await expect(badge(page, 'contract-end')).toContainText(t.endsSoon);

      await page.clock.setSystemTime(TWO_DAYS_AFTER);
      await page.reload();
      await expect(badge(page, 'contract-end')).toHaveAttribute('data-badge', 'contract-end:red');
      await expect(badge(page, 'contract-end')).toContainText(t.ended);
      await page.goto(`/tickets/${ticket.id}`);
      await expect(badge(page, 'due-date')).toHaveAttribute('data-badge', 'due-date:red');
      await expect(badge(page, 'due-date')).toContainText(t.past);

      await page.clock.setSystemTime(FOURTEEN_MONTHS_BEFORE);
      await page.goto(`/contracts/${contract.id}`);
      await expect(badge(page, 'contract-end')).toHaveAttribute('data-badge', 'contract-end:green');
      await expect(badge(page, 'contract-end')).toContainText(t.running);
    },
  );

  test(
    inLanguage('de', 'portal: a warranty badge, its named empty check mark, and the contract end badges'),
    async ({ page }) => {
      const lang = 'de';
      const t = TEXT[lang];
      const admin = await api(page.request, 'admin@example.com');
      const dated = await admin.create('assets', {
        name: `Badge laptop ${lang}`,
        company_id: 1,
        warranty_until: DUE,
      });
      const undated = await admin.create('assets', { name: `Badge phone ${lang}`, company_id: 1 });
      const client = await api(page.request, 'client@example.com');
      const contracts = await client.list('contracts');
      const prepaid = contracts.find((c) => c.period === 'none' && c.end_date === null);
      expect(prepaid, 'a prepaid contract without an end date').toBeDefined();

      // 14 months before the warranty ends: no 'soon' (today's seed once read 'Binnenkort' here).
      await startAt(page, lang, FOURTEEN_MONTHS_BEFORE);
      await signIn(page, 'client@example.com', 'portal', { to: `/app/assets/${dated.id}` });
      await expect(badge(page, 'due-date')).toHaveAttribute('data-badge', 'due-date:none');
      await expect(page.getByText(t.upcoming, { exact: true })).toHaveCount(0);

      await page.clock.setSystemTime(TEN_DAYS_BEFORE);
      await page.reload();
      await expect(badge(page, 'due-date')).toHaveAttribute('data-badge', 'due-date:yellow');
      await expect(badge(page, 'due-date')).toContainText(t.upcoming);

      await page.clock.setSystemTime(TWO_DAYS_AFTER);
      await page.reload();
      await expect(badge(page, 'due-date')).toHaveAttribute('data-badge', 'due-date:red');
      await expect(badge(page, 'due-date')).toContainText(t.past);

      // No warranty date: a check mark that says so, not one that reads as 'covered'.
      await page.goto(`/app/assets/${undated.id}`);
      await expect(badge(page, 'due-date')).toHaveAttribute('data-badge', 'due-date:empty');
      await expect(badge(page, 'due-date')).toHaveText(t.noWarranty);
      await expect(page.getByText(t.noDueDate, { exact: true })).toHaveCount(0);

      // A prepaid card without an end date: no green 'running', it says there is no end date.
      await page.goto(`/app/contracts/${prepaid.id}`);
      await expect(badge(page, 'contract-end')).toHaveAttribute('data-badge', 'contract-end:empty');
      await expect(badge(page, 'contract-end')).toHaveText(t.noEnd);
      await expect(page.getByText(t.running, { exact: true })).toHaveCount(0);
    },
  );
});
