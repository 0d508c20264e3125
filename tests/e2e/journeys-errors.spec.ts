/**
 * Issue 14, items 14 and 15: failed calls as SPEC 8 says, in both apps, each test in one language (nl,
 * en or de; its wording in the others is asserted at its catalogue key in
 * tests/browser/journey-wording.test.ts).
 *
 * 14. The real server fails on request (server/http/faults.ts: the X-E2E-Fault header, honoured only
 *     when the server runs with E2E_FAULTS=1 and NODE_ENV=test, as tests/e2e/server.ts starts it): a
 *     500 or a cut connection on a list shows the error toast once and an error state with a retry
 *     instead of skeleton rows; a 500 on a detail is not 'Item bestaat niet'; a 404 shows no toast.
 * 15. A 422 shows the message in bold in the toast, then the field's lines, and each line under its
 *     field: client create (SPEC 5's min-length sentence), ticket create, a message with a refused file.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { TEXT } from './journeys-errors-text.ts';
import { api, expectAccessible, firstRecordRow, inLanguage, signIn, startIn, type Lang } from './support.ts';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 800 };
const CLIENT = 'client@example.com';
const ADMIN = 'admin@example.com';

/** The page fails these calls at the real server (server/http/faults.ts); no argument: none any more. */
async function failAtServer(page: Page, ...faults: string[]) {
  await page.setExtraHTTPHeaders(faults.length ? { 'X-E2E-Fault': faults.join(', ') } : {});
}

/**
 * Signed out, in `lang` (startIn), with every toast the page shows recorded in `window.e2eToasts` (so a
 * test can say that a toast came once, or never).
 */
async function startRecordingIn(page: Page, lang: Lang) {
  await startIn(page, lang);
  await page.addInitScript(() => {
    (window as unknown as { e2eToasts: string[] }).e2eToasts = [];
    new MutationObserver(() => {
      for (const toast of Array.from(
        document.querySelectorAll<HTMLElement>('.MuiSnackbar-root .MuiAlert-message'),
      )) {
        if (toast.dataset.recorded) continue;
        toast.dataset.recorded = '1';
        (window as unknown as { e2eToasts: string[] }).e2eToasts.push(toast.innerText);
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

const toastsSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { e2eToasts: string[] }).e2eToasts);

const errorToast = (page: Page) => page.getByRole('alert');

test.describe('server errors', () => {
  // The same journey at both widths, each in a language of its own: the rows come back as a table on
  // a desktop and as cards on a phone.
  for (const [lang, size, px, rows] of [
    ['nl', DESKTOP, 1280, (page: Page) => firstRecordRow(page)],
    ['en', PHONE, 375, (page: Page) => page.locator('section .MuiCard-root').first()],
  ] as const) {
    test(
      inLanguage(
        lang,
        `a list answered 500 shows the toast once and an error state with a retry at ${px} px`,
      ),
      async ({ page }) => {
        const t = TEXT[lang];
        await page.setViewportSize(size);
        await startRecordingIn(page, lang);
        await signIn(page, CLIENT, 'portal');
        await failAtServer(page, '500 GET /api/tickets');
        await page.reload();

        const failed = page.getByTestId('load-failed');
        await expect(failed).toContainText(t.listFailed);
        await expect(errorToast(page)).toHaveText(t.server);
        // The skeleton is gone, and the list does not pretend to be empty.
        await expect(page.locator('[data-testid="skeleton-row"], [data-testid="skeleton-card"]')).toHaveCount(
          0,
        );
        await expect(page.getByText(/Geen tickets gevonden|No tickets found/)).toHaveCount(0);
        expect(await toastsSeen(page)).toEqual([t.server]);
        await expectAccessible(page, `list error state ${lang} ${px}`);

        // The server is back: the retry loads the rows.
        await failAtServer(page);
        await failed.getByRole('button', { name: t.retry }).click();
        await expect(failed).toHaveCount(0);
        await expect(rows(page)).toBeVisible();
      },
    );
  }

  test(
    inLanguage('de', 'a back-office list whose connection is cut says the server cannot be reached'),
    async ({ page }) => {
      const lang = 'de';
      const t = TEXT[lang];
      await startRecordingIn(page, lang);
      await signIn(page, ADMIN, 'backoffice');
      await failAtServer(page, 'reset GET /api/companies');
      await page.goto('/companies');
      const failed = page.getByTestId('load-failed');
      await expect(failed).toContainText(t.listFailed);
      await expect(errorToast(page)).toHaveText(t.network);
      await expect(page.locator('[data-testid="skeleton-row"]')).toHaveCount(0);
      await failAtServer(page);
      await failed.getByRole('button', { name: t.retry }).click();
      await expect(firstRecordRow(page)).toBeVisible();
    },
  );

  test(
    inLanguage('nl', 'a detail answered 500 is a server error with a retry, not "item does not exist"'),
    async ({ page }) => {
      const lang = 'nl';
      const t = TEXT[lang];
      await startRecordingIn(page, lang);
      await signIn(page, CLIENT, 'portal');
      await firstRecordRow(page).click();
      await expect(page).toHaveURL(/\/app\/tickets\/\d+$/);
      const path = new URL(page.url()).pathname;
      const id = path.split('/').pop()!;

      await failAtServer(page, `500 GET /api/tickets/${id}`);
      await page.reload();
      const failed = page.getByTestId('load-failed');
      await expect(failed).toContainText(t.recordFailed);
      await expect(errorToast(page)).toHaveText(t.server);
      // It stays on the record's address, and never says the item does not exist.
      expect(new URL(page.url()).pathname).toBe(path);
      expect(await toastsSeen(page)).toEqual([t.server]);
      await expect(page.getByText(t.doesNotExist)).toHaveCount(0);
      await expectAccessible(page, `detail error state ${lang}`);

      await failAtServer(page);
      await failed.getByRole('button', { name: t.retry }).click();
      await expect(failed).toHaveCount(0);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Ticket');
    },
  );

  test(
    inLanguage(
      'en',
      'a ticket whose custom fields and contracts answer 500 shows, saying so in their places',
    ),
    async ({ page }) => {
      const lang = 'en';
      const t = TEXT[lang];
      await startRecordingIn(page, lang);
      const token = await signIn(page, ADMIN, 'backoffice');
      const tickets = (await api(
        page,
        token,
        'GET',
        '/tickets?builder[0][whereNotNull]=company_id&builder[1][paginate]=1',
      )) as { data: { id: number; description: string }[] };
      const ticket = tickets.data[0]!;
      // The figures read before the detail shows (src/custom/detail/readBeforeShow.ts) fail; the
      // ticket itself is read as usual.
      await failAtServer(page, '500 GET /api/custom-values', '500 GET /api/contracts');
      await page.goto(`/tickets/${ticket.id}`);

      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByRole('tab').first()).toBeVisible();
      const failures = page.getByTestId('load-failed');
      await expect(failures.filter({ hasText: t.customFieldsFailed })).toHaveCount(1);
      await expect(failures.filter({ hasText: t.timeFailed })).toHaveCount(1);
      // Not left out as if there were none: no custom field shows, nor the time chips.
      await expect(page.getByTestId(/^custom-field-/)).toHaveCount(0);
      await expect(page.getByRole('group', { name: t.timeLabel })).toHaveCount(0);
      await expect(errorToast(page).first()).toHaveText(t.server);
      await expectAccessible(page, `detail figures failed ${lang}`);

      await failAtServer(page);
      await failures.filter({ hasText: t.customFieldsFailed }).getByRole('button', { name: t.retry }).click();
      await expect(page.getByTestId(/^custom-field-/).first()).toBeVisible();
      await failures.filter({ hasText: t.timeFailed }).getByRole('button', { name: t.retry }).click();
      await expect(page.getByRole('group', { name: t.timeLabel })).toBeVisible();
      await expect(failures).toHaveCount(0);
    },
  );

  test(
    inLanguage('de', 'a portal contract answered 500 shows the same error state, not "item does not exist"'),
    async ({ page }) => {
      const lang = 'de';
      const t = TEXT[lang];
      await startRecordingIn(page, lang);
      await signIn(page, CLIENT, 'portal', { to: '/app/contracts' });
      await firstRecordRow(page).click();
      await expect(page).toHaveURL(/\/app\/contracts\/\d+$/);
      const id = new URL(page.url()).pathname.split('/').pop()!;
      await failAtServer(page, `500 GET /api/contracts/${id}`);
      await page.reload();
      await expect(page.getByTestId('load-failed')).toContainText(t.recordFailed);
      await expect(errorToast(page)).toHaveText(t.server);
      await expect(page).toHaveURL(new RegExp(`/app/contracts/${id}$`));
      expect(await toastsSeen(page)).toEqual([t.server]);
    },
  );

  test(
    inLanguage('nl', 'a detail answered 404 goes back to the list without any toast'),
    async ({ page }) => {
      const lang = 'nl';
      await startRecordingIn(page, lang);
      await signIn(page, CLIENT, 'portal');
      await expect(firstRecordRow(page)).toBeVisible();
      await page.goto('/app/tickets/999999');
      await expect(page).toHaveURL(/\/app\/tickets$/);
      // The list has loaded again (a busy machine may take a while): any toast would be there by now.
      await expect(firstRecordRow(page)).toBeVisible({ timeout: 30_000 });
      expect(await toastsSeen(page)).toEqual([]);
      await expect(errorToast(page)).toHaveCount(0);
    },
  );
});

test.describe('422 answers', () => {
  // The same journey at both widths, each in a language of its own (the field line and the toast wrap
  // differently on a phone).
  for (const [lang, size, px] of [
    ['en', DESKTOP, 1280],
    ['de', PHONE, 375],
  ] as const) {
    test(
      inLanguage(
        lang,
        `client create with a short password: the spec’s sentence in bold and under the field at ${px} px`,
      ),
      async ({ page }) => {
        const t = TEXT[lang];
        await page.setViewportSize(size);
        await startRecordingIn(page, lang);
        await signIn(page, ADMIN, 'backoffice', { to: '/clients/create' });
        await page.getByLabel(t.firstName).fill('Kort');
        await page.getByLabel(t.lastName).fill(`Wachtwoord ${Date.now()}`);
        await page.getByLabel(t.password, { exact: true }).fill('abc');
        const answer = page.waitForResponse(
          (r) => r.url().endsWith('/api/clients') && r.request().method() === 'POST',
        );
        await page.getByRole('button', { name: t.save }).click();
        expect((await answer).status()).toBe(422);

        // The toast: the message in bold (the server's message is this field's line).
        await expect(errorToast(page).locator('strong')).toHaveText(t.passwordTooShort);
        await expect(errorToast(page)).toHaveText(t.passwordTooShort);
        // The line under its field, which is marked invalid.
        const field = page.getByLabel(t.password, { exact: true });
        await expect(field).toHaveAttribute('aria-invalid', 'true');
        const helper = page.locator(`#${await field.getAttribute('id')}-helper-text`);
        await expect(helper).toHaveText(t.passwordTooShort);
        expect(await toastsSeen(page)).toHaveLength(1);
        await expect(page).toHaveURL(/\/clients\/create$/);
        await expectAccessible(page, `client create 422 ${lang} ${px}`);
      },
    );
  }

  test(
    inLanguage(
      'nl',
      'ticket create with a description over 500 characters: the line in bold and under the field',
    ),
    async ({ page }) => {
      const lang = 'nl';
      const t = TEXT[lang];
      await startRecordingIn(page, lang);
      await signIn(page, CLIENT, 'portal', { to: '/app/tickets/create' });
      await page.getByLabel(t.description).fill('x'.repeat(501));
      const priority = page.getByRole('combobox', { name: t.priority });
      await priority.click();
      // The tenant's priorities are named in the user's language; a search starts after 2 characters.
      await priority.pressSequentially(t.high.slice(0, 3), { delay: 50 });
      await page.getByRole('option', { name: t.high }).click();
      await page.getByRole('combobox', { name: 'Impact' }).click();
      await page.getByRole('option').filter({ hasText: /\S/ }).first().click();
      const answer = page.waitForResponse(
        (r) => r.url().endsWith('/api/tickets') && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: t.save }).click();
      expect((await answer).status()).toBe(422);

      await expect(errorToast(page).locator('strong')).toHaveText(t.descriptionTooLong);
      const field = page.getByLabel(t.description);
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator(`#${await field.getAttribute('id')}-helper-text`)).toHaveText(
        t.descriptionTooLong,
      );
      await expect(page).toHaveURL(/\/app\/tickets\/create$/);
      await expectAccessible(page, `ticket create 422 ${lang}`);
    },
  );

  test(
    inLanguage('en', 'a message with a refused file: the line in bold and under that file; the text stays'),
    async ({ page }) => {
      const lang = 'en';
      const t = TEXT[lang];
      await startRecordingIn(page, lang);
      await signIn(page, CLIENT, 'portal');
      await firstRecordRow(page).click();
      await expect(page).toHaveURL(/\/app\/tickets\/\d+$/);
      const text = `Met een verboden bijlage ${Date.now()}`;
      const editor = page.getByTestId('message-form').locator('[contenteditable="true"]');
      await editor.click();
      await page.keyboard.type(text);
      await page.getByTestId('message-files').setInputFiles({
        name: 'programma.exe',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from('MZ not really a program'),
      });
      const answer = page.waitForResponse(
        (r) => r.url().endsWith('/api/messages') && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: t.send, exact: true }).click();
      expect((await answer).status()).toBe(422);

      await expect(errorToast(page).locator('strong')).toHaveText(t.exeRefused);
      const file = page.getByRole('listitem').filter({ hasText: 'programma.exe' });
      await expect(file.getByTestId('refused-lines')).toHaveText(t.exeRefused);
      await expect(editor).toContainText(text);
      await expectAccessible(page, `message 422 ${lang}`);
    },
  );
});
