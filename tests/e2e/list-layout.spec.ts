/**
 * Issue 37, item 5: a ticket list that shows what operators need. At 1280 px the default columns show
 * status, company, client and operator whole; a column is sized by dragging its edge or by the arrow
 * keys on it, kept per user and route (localStorage and the server's user config) and given back by
 * the layout's reset; the bulk bar takes no room until rows are selected, on a desktop and on a phone;
 * on a phone the first card starts in the screen's first third and the create button covers no card
 * text; a form not sent names the fields to fill in. One language per journey, axe-clean.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, forgetTicketListLayout, inLanguage, startIn, storeSession } from './support.ts';

const ADMIN = 'admin@example.com';

test.afterEach(async ({ request }) => {
  await forgetTicketListLayout(request, [ADMIN]);
});

/** The index of a column by its header's label. */
async function columnIndex(page: Page, label: string): Promise<number> {
  const labels = await page
    .locator('thead th')
    .evaluateAll((cells) =>
      cells.map((cell) => cell.querySelector('.MuiTableSortLabel-root, span')?.textContent ?? ''),
    );
  const index = labels.findIndex((text) => text.trim() === label);
  expect(index, `a column ${label} among ${labels.join(', ')}`).toBeGreaterThanOrEqual(0);
  return index;
}

/** The texts of a column's cells that do not fit it (the cell, or a span in it, cut by its ellipsis). */
async function clippedCells(page: Page, index: number): Promise<string[]> {
  return page.locator('tbody tr').evaluateAll(
    (rows, i) =>
      rows
        .map((row) => row.querySelectorAll('td')[i] as HTMLElement | undefined)
        .filter((cell): cell is HTMLElement => !!cell && cell.textContent !== '')
        .filter((cell) =>
          [cell, ...Array.from(cell.querySelectorAll<HTMLElement>('span'))].some(
            (el) => el.scrollWidth > el.clientWidth + 1,
          ),
        )
        .map((cell) => cell.textContent ?? ''),
    index,
  );
}

const top = async (locator: Locator) => (await locator.boundingBox())!.y;

test(
  inLanguage(
    'nl',
    'at 1280 px the ticket list shows names whole, columns are sized and kept, and the bulk bar comes with a selection',
  ),
  async ({ page, request }) => {
    await startIn(page, 'nl');
    await page.setViewportSize({ width: 1280, height: 800 });
    const token = await storeSession(page, ADMIN);
    await page.goto('/tickets');
    const view = page.getByRole('combobox', { name: /^Weergave\b/ });
    await view.click();
    await page.getByRole('option', { name: 'Alle tickets' }).click();
    // The menu fades out over the list for a moment; a click meant for a row must not land on it.
    await expect(page.locator('#menu-')).toHaveCount(0);
    const rows = page.locator('tbody tr:not([data-testid="skeleton-row"])');
    await expect(rows).toHaveCount(15);

    // The default columns' names read whole: no status, company, client or operator cut short.
    for (const label of ['Referentie', 'Status', 'Bedrijf', 'Klant', 'Operator'])
      expect(await clippedCells(page, await columnIndex(page, label)), label).toEqual([]);

    // Nothing selected: no bulk bar. Ticking a row shows it below the rows and moves none of them.
    const bar = page.getByRole('toolbar', { name: 'Acties voor de geselecteerde rijen' });
    await expect(bar).toHaveCount(0);
    const firstRowTop = await top(rows.first());
    await page
      .getByRole('checkbox', { name: /^Rij .* selecteren$/ })
      .first()
      .check();
    await expect(bar).toContainText('1 geselecteerd');
    expect(await top(rows.first())).toBe(firstRowTop);
    // It sticks to the bottom of the screen, over the rows below it, not over the first.
    const barBox = (await bar.boundingBox())!;
    expect(barBox.y + barBox.height).toBeLessThanOrEqual(800);
    expect(barBox.y).toBeGreaterThan(firstRowTop + 40);
    await expectAccessible(page, 'ticket list with a row ticked, 1280 px');
    await page
      .getByRole('checkbox', { name: /^Rij .* selecteren$/ })
      .first()
      .uncheck();
    await expect(bar).toHaveCount(0);
    expect(await top(rows.first())).toBe(firstRowTop);

    // Dragging the status column's edge widens it by as much.
    const status = await columnIndex(page, 'Status');
    const statusHeader = page.locator('thead th').nth(status);
    const before = (await statusHeader.boundingBox())!.width;
    const edge = page.getByRole('separator', { name: /^Breedte van kolom Status/ });
    const edgeBox = (await edge.boundingBox())!;
    await page.mouse.move(edgeBox.x + edgeBox.width / 2, edgeBox.y + 10);
    await page.mouse.down();
    await page.mouse.move(edgeBox.x + edgeBox.width / 2 + 40, edgeBox.y + 10, { steps: 4 });
    await page.mouse.move(edgeBox.x + edgeBox.width / 2 + 80, edgeBox.y + 10, { steps: 4 });
    await page.mouse.up();
    const dragged = (await statusHeader.boundingBox())!.width;
    expect(Math.abs(dragged - (before + 80))).toBeLessThanOrEqual(2);
    // The sort did not change by the drag (the edge is not the sort button).
    await expect(page.locator('thead th[aria-sort="descending"]')).toHaveCount(1);
    await expect(page.locator('thead th').nth(status)).not.toHaveAttribute(
      'aria-sort',
      /ascending|descending/,
    );

    // The keyboard: the company column's edge, focused, narrows with the left arrow (16 px a press).
    const company = page.getByRole('separator', { name: /^Breedte van kolom Bedrijf/ });
    const companyWidth = Number(await company.getAttribute('aria-valuenow'));
    await company.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(company).toHaveAttribute('aria-valuenow', String(companyWidth + 32));
    await expectAccessible(page, 'ticket list, a column edge focused, 1280 px');

    // Kept with the layout: on the server's user config, and after a reload.
    await expect
      .poll(async () => {
        const me = await (
          await request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } })
        ).json();
        const configs = ((me.user ?? me).configs ?? []) as { name: string; value: unknown }[];
        const value = configs.find((c) => c.name === 'list:tickets.index')?.value;
        return (typeof value === 'string' ? JSON.parse(value) : value)?.widths;
      })
      .toEqual({ status_id: Math.round(dragged), company_id: companyWidth + 32 });
    await page.reload();
    await expect(rows).toHaveCount(15);
    await expect(page.getByRole('separator', { name: /^Breedte van kolom Bedrijf/ })).toHaveAttribute(
      'aria-valuenow',
      String(companyWidth + 32),
    );
    expect(
      Math.abs((await page.locator('thead th').nth(status).boundingBox())!.width - dragged),
    ).toBeLessThanOrEqual(1);

    // Home on an edge gives that column its own width back; the layout's reset gives all of them.
    await page.getByRole('separator', { name: /^Breedte van kolom Bedrijf/ }).focus();
    await page.keyboard.press('Home');
    await expect(page.getByRole('separator', { name: /^Breedte van kolom Bedrijf/ })).toHaveAttribute(
      'aria-valuenow',
      String(companyWidth),
    );
    await page.getByRole('button', { name: 'Kolommen en paginagrootte' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Standaardkolommen' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Opslaan' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect(
      Math.abs((await page.locator('thead th').nth(status).boundingBox())!.width - before),
    ).toBeLessThanOrEqual(1);
    expect(
      JSON.parse(
        (await page.evaluate(() => {
          const key = Object.keys(localStorage).find(
            (k) => k.endsWith(':tickets.index') && k.startsWith('list:'),
          );
          return key ? localStorage.getItem(key) : null;
        }))!,
      ),
    ).not.toHaveProperty('widths');
  },
);

test(
  inLanguage(
    'en',
    'on a phone the first card is in the first third, the create button covers no card text, the bulk bar comes with a selection',
  ),
  async ({ page }) => {
    await startIn(page, 'en');
    await page.setViewportSize({ width: 375, height: 800 });
    await storeSession(page, ADMIN);
    await page.goto('/tickets');
    const view = page.getByRole('combobox', { name: /^View\b/ });
    await view.click();
    await page.getByRole('option', { name: 'All tickets' }).click();
    // The menu fades out over the list for a moment; a click meant for a row must not land on it.
    await expect(page.locator('#menu-')).toHaveCount(0);
    const cards = page.locator('[data-shortcut-row]');
    await expect(cards).toHaveCount(15);
    const firstTop = await top(cards.first());
    expect(firstTop).toBeLessThanOrEqual(800 / 3);
    const bar = page.getByRole('toolbar', { name: 'Actions for the selected rows' });
    await expect(bar).toHaveCount(0);
    await expectAccessible(page, 'ticket cards, 375 px');

    // Scrolled to the end, the round create button stands over no card's text.
    const create = page.getByRole('link', { name: 'Create' });
    await expect(create).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const button = (await create.boundingBox())!;
    const covered = await page
      .locator('[data-shortcut-row] dd, [data-shortcut-row] dt, [data-shortcut-row] h2')
      .evaluateAll(
        (cells, b) =>
          cells
            .map((cell) => ({ text: cell.textContent, box: cell.getBoundingClientRect() }))
            .filter(
              ({ box }) =>
                box.width > 0 &&
                box.left < b.x + b.width &&
                box.right > b.x &&
                box.top < b.y + b.height &&
                box.bottom > b.y,
            )
            .map(({ text }) => text),
        button,
      );
    expect(covered).toEqual([]);

    // Ticking a card: the bar shows at the bottom, the create button makes way, no card moves.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page
      .getByRole('checkbox', { name: /^Select T-/ })
      .first()
      .check();
    await expect(bar).toContainText('1 selected');
    await expect(create).toHaveCount(0);
    expect(await top(cards.first())).toBe(firstTop);
    const barBox = (await bar.boundingBox())!;
    expect(barBox.y + barBox.height).toBeLessThanOrEqual(800);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectAccessible(page, 'ticket cards with one ticked, 375 px');
    await page
      .getByRole('checkbox', { name: /^Select T-/ })
      .first()
      .uncheck();
    await expect(bar).toHaveCount(0);
  },
);

for (const width of [1280, 375])
  test(
    inLanguage('en', `a create form not sent names the fields to fill in, at ${width} px`),
    async ({ page }) => {
      await startIn(page, 'en');
      await page.setViewportSize({ width, height: 800 });
      await storeSession(page, ADMIN);
      await page.goto('/tickets/create');
      // Something typed, the required description and the demo's required custom field left empty.
      await page.getByRole('textbox', { name: 'Stage' }).fill('Intake');
      // The tenant's custom fields join the form once read: the form a user sends has them.
      await expect(page.getByRole('combobox', { name: 'Impact' })).toBeVisible();
      await page.getByRole('button', { name: 'Save' }).click();
      const toast = page.getByRole('alert').or(page.getByRole('status')).filter({ hasText: 'Fill in:' });
      await expect(toast).toHaveText('Fill in: Description, Impact.');
      await expect(page.getByText('The form is not valid')).toHaveCount(0);
      await expect(page.getByRole('textbox', { name: 'Description' })).toBeFocused();
      await expectAccessible(page, `ticket create form not sent, ${width} px`);
    },
  );
