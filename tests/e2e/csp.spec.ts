/**
 * The apps under their Content-Security-Policy (issue 12, finding 7): the portal's login, its ticket
 * list and a ticket with its thread (the editor is a lazy chunk), the back office's list and a detail,
 * and the API viewer at /api/docs, in Chromium. Any console message about the policy or any
 * `securitypolicyviolation` event on a page fails the walk, and the styles MUI writes at run time
 * must have been applied.
 */
import type { Page, Response } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { openFirstRecord, startWithEmptyStorage, submitLogin } from './support.ts';

/** Everything the browser says about the policy, from every document the page loads. */
async function watchPolicy(page: Page): Promise<string[]> {
  const reports: string[] = [];
  page.on('console', (message) => {
    if (/content.security.policy/i.test(message.text())) reports.push(`console: ${message.text()}`);
  });
  await page.exposeFunction('reportPolicyViolation', (text: string) => reports.push(`event: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { reportPolicyViolation: (t: string) => void })
        .reportPolicyViolation;
      report(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} in ${e.documentURI}`);
    });
  });
  return reports;
}

function expectPolicy(response: Response | null, scriptSrc = "script-src 'self'") {
  const policy = response?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain(scriptSrc);
  expect(policy).toContain("frame-ancestors 'none'");
}

/** MUI's styles are <style> elements emotion writes at run time: the app bar has its colour. */
async function expectStyled(page: Page) {
  const header = page.locator('header').first();
  await expect(header).toBeVisible();
  const background = await header.evaluate((e) => getComputedStyle(e).backgroundColor);
  expect(background).not.toBe('rgba(0, 0, 0, 0)');
}

test.describe('the apps under their Content-Security-Policy', () => {
  test.beforeEach(async ({ page }) => {
    await startWithEmptyStorage(page);
  });

  test('the portal: login, tickets, a ticket with its thread and editor', async ({ page }) => {
    const reports = await watchPolicy(page);
    expectPolicy(await page.goto('/app/login'));
    await expect(page.getByRole('button', { name: /inloggen/i })).toBeVisible();

    // The login form under the policy too: the page that was just checked.
    await submitLogin(page, 'client@example.com');
    await expect(page).toHaveURL(/\/app\/tickets$/);
    await expectStyled(page);
    await openFirstRecord(page);
    await expect(page).toHaveURL(/\/app\/tickets\/\d+$/);
    await expect(page.getByRole('heading', { level: 2, name: 'Berichten' })).toBeVisible();
    const editor = page.getByRole('textbox', { name: 'Schrijf een bericht…' });
    await expect(editor).toBeVisible();
    await editor.click();
    await editor.pressSequentially('Under the policy');
    await expect(editor).toContainText('Under the policy');
    expect(reports).toEqual([]);
  });

  test('the back office: list and a ticket detail', async ({ page }) => {
    const reports = await watchPolicy(page);
    expectPolicy(await page.goto('/login'));
    await submitLogin(page, 'admin@example.com');
    // The login lands on the dashboard (issue 18); the tickets list is a menu entry away.
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expectStyled(page);
    await page.getByRole('menuitem', { name: 'Tickets', exact: true }).click();
    await expect(page).toHaveURL(/\/tickets$/);
    // The rows of the list's own query, counted, not those of a layout still being applied.
    await expect(page.getByRole('status').filter({ hasText: /^1-15 van \d+$/ })).toBeVisible();
    await openFirstRecord(page);
    await expect(page).toHaveURL(/\/tickets\/\d+/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Schrijf een bericht…' })).toBeVisible();
    expect(reports).toEqual([]);
  });

  test('the API viewer at /api/docs', async ({ page }) => {
    const reports = await watchPolicy(page);
    expectPolicy(await page.goto('/api/docs/'));
    // The viewer has read the document: the operations of a tag open and show.
    const tag = page.locator('.opblock-tag', { hasText: /^tickets/i }).first();
    // The viewer's 1.5 MB script and the whole document, parsed while the suite's first servers start:
    // longer than the default 10 s on a busy two-core machine (seen once in a full run).
    await expect(tag).toBeVisible({ timeout: 30_000 });
    await tag.click();
    await expect(page.locator('.opblock-summary-path', { hasText: '/tickets' }).first()).toBeVisible();
    expect(reports).toEqual([]);
  });
});
