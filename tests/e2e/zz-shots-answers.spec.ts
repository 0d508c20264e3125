import { test } from './fixtures.ts';
import { signIn, startWithEmptyStorage } from './support.ts';

const DIR = '/tmp/shots-answers';
for (const lang of ['nl', 'en'] as const)
  for (const width of [1280, 375]) {
    test(`shots ${lang} ${width}`, async ({ page }) => {
      await startWithEmptyStorage(page);
      await page.setViewportSize({ width, height: 900 });
      const token = await signIn(page, 'operator@example.com', 'backoffice', { to: '/tickets', locale: lang });
      await page.getByTestId('default-view-bar').waitFor();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${DIR}/list-${lang}-${width}.png`, fullPage: false });
      const tickets = await (
        await page.request.get('/api/tickets?builder[0][whereNotNull][0]=client_id&builder[1][paginate]=1', {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json();
      await page.goto(`/tickets/${tickets.data[0].id}`);
      const button = page.getByRole('button', { name: lang === 'nl' ? 'Standaardantwoord' : 'Standard answer', exact: true });
      await button.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${DIR}/editor-${lang}-${width}.png` });
      await button.click();
      await page.getByRole('option').first().waitFor();
      await page.screenshot({ path: `${DIR}/picker-${lang}-${width}.png` });
      await page.getByRole('option').first().click();
      await page.waitForTimeout(400);
      await page.screenshot({ path: `${DIR}/inserted-${lang}-${width}.png` });
    });
    test(`settings shots ${lang} ${width}`, async ({ page }) => {
      await startWithEmptyStorage(page);
      await page.setViewportSize({ width, height: 900 });
      await signIn(page, 'admin@example.com', 'backoffice', { to: '/standard-answers', locale: lang });
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${DIR}/answers-list-${lang}-${width}.png` });
      await page.goto('/standard-answers/create');
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${DIR}/answers-create-${lang}-${width}.png`, fullPage: true });
    });
  }
