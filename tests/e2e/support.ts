import { expect, type Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';

export const DEMO_PASSWORD = 'demo';

/** Signs in through the login form of the portal (/app/login) or the back office (/login). */
export async function login(page: Page, email: string, app: 'portal' | 'backoffice' = 'portal') {
  await page.goto(app === 'portal' ? '/app/login' : '/login');
  await page.getByLabel(/e-mail/i).fill(email);
  await page.getByLabel(/wachtwoord|password|passwort/i).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: /inloggen|sign in|anmelden/i }).click();
}

/** axe-core on the page as it is: no violations at all (WCAG 2.1 A and AA rules and best practices). */
export async function expectAccessible(page: Page, where: string) {
  // A toast or dialog still fading in has blended colours: axe would measure a contrast nobody sees.
  await page
    .waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, {
      timeout: 5_000,
    })
    .catch(() => undefined);
  const results = await new AxeBuilder({ page }).analyze();
  const violations = results.violations.map(
    (v) =>
      `${where}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join(' | ')}`,
  );
  expect(violations).toEqual([]);
}

/** Each test starts with an empty localStorage (the first page load only, so a reload keeps what it set). */
export async function startWithEmptyStorage(page: Page) {
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('e2e-started')) {
      localStorage.clear();
      sessionStorage.setItem('e2e-started', '1');
    }
  });
}

/** Draws a short zigzag on the signature pad with the mouse. */
export async function sign(page: Page) {
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + 150);
  await page.mouse.down();
  for (const [dx, dy] of [
    [80, 40],
    [140, 160],
    [200, 50],
    [260, 150],
  ] as const) {
    await page.mouse.move(box.x + dx, box.y + dy, { steps: 5 });
  }
  await page.mouse.up();
}
