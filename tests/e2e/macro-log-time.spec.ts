/**
 * Issue 37: logging time with a macro. An operator adds a "Log time" action in the macro's action
 * editor (minutes and a description), saves, and the macro's detail reads it as a sentence; a rule's
 * editor does not offer the action (a rule logs time for no one). One language per journey, at 1280 and
 * 375 px, axe-clean.
 */
import { expect, test } from './fixtures.ts';
import { api, expectAccessible, inLanguage, startIn, storeSession } from './support.ts';

const TEXT = {
  nl: {
    name: 'Naam',
    add: 'Toevoegen',
    type: 'Wat hij doet',
    logTime: 'Tijd registreren',
    set: 'Een veld instellen',
    minutes: 'Minuten',
    description: 'Omschrijving van het werk',
    save: 'Opslaan',
    sentence: 'Tijd registreren: 15 minuten (“Telefonisch geholpen”)',
  },
  en: {
    name: 'Name',
    add: 'Add',
    type: 'What it does',
    logTime: 'Log time',
    set: 'Set a field',
    minutes: 'Minutes',
    description: 'Description of the work',
    save: 'Save',
    sentence: 'Log time: 15 minutes (“Telefonisch geholpen”)',
  },
} as const;

for (const [lang, width] of [
  ['nl', 1280],
  ['en', 375],
] as const) {
  test(inLanguage(lang, `a macro that logs time, made in its editor, at ${width} px`), async ({ page }) => {
    const t = TEXT[lang];
    await page.setViewportSize({ width, height: 900 });
    await startIn(page, lang);
    const token = await storeSession(page, 'admin@example.com', { locale: lang });
    await page.goto('/macros/create');
    await page.getByRole('textbox', { name: new RegExp(`^${t.name}`) }).fill(`Tijd ${width} ${Date.now()}`);
    await page.getByRole('button', { name: t.add, exact: true }).click();
    await page.getByRole('combobox', { name: new RegExp(`^${t.type}`) }).click();
    await page.getByRole('option', { name: t.logTime }).click();
    await page.getByRole('spinbutton', { name: new RegExp(`^${t.minutes}`) }).fill('15');
    await page.getByRole('textbox', { name: t.description }).fill('Telefonisch geholpen');
    await expectAccessible(page, `macro form with logged time ${lang} ${width}`);
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/macros') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: t.save }).click();
    const answer = await saved;
    expect(answer.status(), await answer.text()).toBe(201);
    const macro = (await answer.json()) as { id: number; actions: unknown };
    try {
      expect(macro.actions).toEqual([{ type: 'log_time', minutes: 15, description: 'Telefonisch geholpen' }]);
      await page.goto(`/macros/${macro.id}`);
      await expect(page.getByRole('listitem').filter({ hasText: t.logTime })).toHaveText(t.sentence);
      await expectAccessible(page, `macro detail with logged time ${lang} ${width}`);

      // A rule's editor offers the other actions, not this one.
      await page.goto('/automation-rules/create');
      await page.getByRole('button', { name: t.add, exact: true }).click();
      await page.getByRole('combobox', { name: new RegExp(`^${t.type}`) }).click();
      await expect(page.getByRole('option', { name: t.set })).toBeVisible();
      await expect(page.getByRole('option', { name: t.logTime })).toHaveCount(0);
      await page.keyboard.press('Escape');
    } finally {
      await api(page, token, 'DELETE', `/macros/${macro.id}`);
    }
  });
}
