/**
 * The suite's accessibility check itself (expectAccessible, support.ts): axe-core stays in a page between
 * scans, so a second scan of the same document must still see what changed since the first.
 */
import { expect, test } from './fixtures.ts';
import { expectAccessible } from './support.ts';

test('the accessibility check fails on a violation added after an earlier scan of the same page', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByRole('button').first().waitFor();
  await expectAccessible(page, 'login');
  await page.evaluate(() => {
    const image = document.createElement('img');
    image.src = '/nothing.png';
    document.querySelector('main')!.append(image);
  });
  await expect(expectAccessible(page, 'login with an image without alt')).rejects.toThrow(/image-alt/);
});

test('a page that never gets a level-one heading still fails after the check has waited for one', async ({
  page,
}) => {
  await page.setContent(
    '<!doctype html><html lang="en"><head><title>No heading</title></head><body><main><p>Text</p></main></body></html>',
  );
  await expect(expectAccessible(page, 'a page without a heading')).rejects.toThrow(/page-has-heading-one/);
});
