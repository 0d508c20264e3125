/**
 * A recurring ticket's checklist as a list (issue 37's review, item 4): an administrator adds items,
 * marks one required and one shown to the client, moves one up and removes one, saves, and the API
 * receives exactly that list as the JSON it copies onto each ticket made; the detail reads it as a
 * numbered list, and editing again shows the same items. nl and en at 1280 and 375 px, axe-clean.
 */
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { api, expectAccessible, inLanguage, startIn, storeSession } from './support.ts';

const TEXT = {
  nl: {
    text: 'Omschrijving',
    required: 'Verplicht',
    visible: 'Zichtbaar voor klant',
    add: 'Toevoegen',
    remove: 'Verwijderen',
    up: 'Omhoog',
    edit: 'Bewerken',
    save: 'Opslaan',
  },
  en: {
    text: 'Description',
    required: 'Required',
    visible: 'Visible to client',
    add: 'Add',
    remove: 'Remove',
    up: 'Move up',
    edit: 'Edit',
    save: 'Save',
  },
} as const;

const expected = [
  { text: 'Back-up gecontroleerd', required: true, visible_to_client: false },
  { text: 'Logboek bijgewerkt', required: false, visible_to_client: false },
  { text: 'Klant gebeld', required: false, visible_to_client: true },
];

for (const [lang, width] of [
  ['nl', 1280],
  ['en', 375],
  ['en', 1280],
  ['nl', 375],
] as const) {
  test(inLanguage(lang, `a recurring ticket's checklist as a list, at ${width} px`), async ({ page }) => {
    const t = TEXT[lang];
    await page.setViewportSize({ width, height: 900 });
    await startIn(page, lang);
    const token = await storeSession(page, 'admin@example.com', { locale: lang });
    const companies = (await api(page, token, 'GET', '/companies')).data as { id: number }[];
    const templates = (await api(page, token, 'GET', '/ticket-templates')).data as { id: number }[];
    // Paused: this test is about the form, not about tickets being made.
    const schedule = await api(page, token, 'POST', '/recurring-tickets', {
      name: `Checklist ${lang} ${width} ${Date.now()}`,
      company_id: companies[0]!.id,
      ticket_template_id: templates[0]!.id,
      frequency: 'monthly',
      nth: 1,
      weekday: 1,
      time_of_day: '09:00',
      starts_on: '2026-01-01',
      active: false,
      checklist: [],
    });
    try {
      await page.goto(`/recurring-tickets/${schedule.id}`);
      await page.getByRole('button', { name: t.edit }).click();
      const lines = page.locator('.RaSimpleFormIterator-line');
      const add = page.getByRole('button', { name: t.add, exact: true });
      const fill = async (line: Locator, text: string) =>
        line.getByRole('textbox', { name: new RegExp(`^${t.text}`) }).fill(text);
      for (const text of ['Back-up gecontroleerd', 'Klant gebeld', 'Logboek bijgewerkt', 'Weg ermee']) {
        await add.click();
        await fill(lines.last(), text);
      }
      await lines.nth(0).getByLabel(t.required).check();
      await lines.nth(1).getByLabel(t.visible).check();
      // A line's own buttons show while the pointer is on it (react-admin's iterator); in the middle of
      // the screen, where the sticky save bar at 375 px does not take the pointer.
      const pointAt = async (line: Locator) => {
        await line.evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await line.hover();
      };
      await pointAt(lines.nth(3));
      await lines.nth(3).getByRole('button', { name: t.remove }).click();
      await expect(lines).toHaveCount(3);
      await pointAt(lines.nth(2));
      await lines.nth(2).getByRole('button', { name: t.up }).click();
      await expect(lines.nth(1).getByRole('textbox', { name: new RegExp(`^${t.text}`) })).toHaveValue(
        'Logboek bijgewerkt',
      );
      // The move button's tooltip sits outside the page's landmarks while it shows: the pointer leaves.
      await page.mouse.move(0, 0);
      await expect(page.getByRole('tooltip')).toHaveCount(0);
      await expectAccessible(page, `checklist form ${lang} ${width}`);
      await page.screenshot({ path: `/tmp/rules-shots/checklist-form-${lang}-${width}.png`, fullPage: true });

      const put = page.waitForRequest(
        (r) =>
          r.url().endsWith(`/api/recurring-tickets/${schedule.id}`) && ['PUT', 'PATCH'].includes(r.method()),
      );
      await page.getByRole('button', { name: t.save }).click();
      expect((await put).postDataJSON().checklist).toEqual(expected);

      // The detail: a numbered list that says which items are required and shown to the client.
      const shown = page.getByTestId('checklist-template').getByRole('listitem');
      await expect(shown).toHaveText([
        `Back-up gecontroleerd (${t.required.toLowerCase()})`,
        'Logboek bijgewerkt',
        `Klant gebeld (${t.visible.toLowerCase()})`,
      ]);
      expect((await api(page, token, 'GET', `/recurring-tickets/${schedule.id}`)).checklist).toEqual(
        expected,
      );
      await expectAccessible(page, `checklist display ${lang} ${width}`);
      await page.screenshot({ path: `/tmp/rules-shots/checklist-show-${lang}-${width}.png`, fullPage: true });

      // Reopened: the same items in the same order.
      await page.getByRole('button', { name: t.edit }).click();
      await expect(lines).toHaveCount(3);
      for (const [i, item] of expected.entries()) {
        await expect(lines.nth(i).getByRole('textbox', { name: new RegExp(`^${t.text}`) })).toHaveValue(
          item.text,
        );
        await expect(lines.nth(i).getByLabel(t.required)).toBeChecked({ checked: item.required });
        await expect(lines.nth(i).getByLabel(t.visible)).toBeChecked({ checked: item.visible_to_client });
      }
    } finally {
      await api(page, token, 'DELETE', `/recurring-tickets/${schedule.id}`);
    }
  });
}
