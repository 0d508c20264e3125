/**
 * The priorities' order, changed by dragging in the back office's order dialog. The operator's walk
 * through every list and detail that this file held, and its axe scans of the screen types, are part
 * of the translation sweep (translation-sweep.spec.ts), which visits the same screens in every language.
 */
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn } from './support.ts';

test('an operator changes the order of the priorities by dragging, and it is stored', async ({ page }) => {
  await signIn(page, 'admin@example.com', 'backoffice');
  await expect(page).toHaveURL(/\/tickets$/);
  const token = await page.evaluate(() => localStorage.getItem('APP_PORTAL_TOKEN'));
  const headers = { authorization: `Bearer ${token}` };
  const priorities = async () => {
    const res = await page.request.get(
      '/api/priorities?builder[0][orderBy][0]=order&builder[0][orderBy][1]=asc',
      { headers },
    );
    return (await res.json()).data as { id: number; label: string; order: number }[];
  };
  const ordered = async () => (await priorities()).map((p) => p.label);
  const start = await priorities();
  const before = start.map((p) => p.label);
  try {
    await page.goto('/priorities');
    await page.getByRole('button', { name: 'Volgorde wijzigen' }).click();
    const dialog = page.getByRole('dialog', { name: 'Volgorde wijzigen' });
    await expect(dialog.getByRole('listitem')).toHaveCount(before.length);
    await expectAccessible(page, 'order dialog');
    /** Drags an item's handle with the mouse onto another item's place. */
    const move = async (name: string, onto: string) => {
      const from = (await dialog.getByRole('button', { name: `${name} verplaatsen` }).boundingBox())!;
      const to = (await dialog.getByRole('button', { name: `${onto} verplaatsen` }).boundingBox())!;
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      for (let i = 1; i <= 5; i += 1)
        await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + ((to.y - from.y) * i) / 5);
      await page.mouse.up();
    };

    await move(before[0]!, before[1]!);
    // The drop has landed (the list shows the new order) and its animation has ended before saving:
    // a click during the drop animation may not reach the button.
    await expect(dialog.getByRole('listitem').first()).toHaveText(before[1]!);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await dialog.getByRole('button', { name: 'Opslaan' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Volgorde opgeslagen.' })).toBeVisible();
    await expect.poll(ordered).toEqual([before[1], before[0], ...before.slice(2)]);
  } finally {
    // Back as it was, through the API (other tests read the priorities in their order): the drag
    // above is what this test is about, a second one would only test the mouse again.
    for (const { id, order } of start) {
      const res = await page.request.put(`/api/priorities/${id}`, { headers, data: { order } });
      expect(res.status()).toBe(200);
    }
  }
  expect(await ordered()).toEqual(before);
});
