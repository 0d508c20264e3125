/**
 * A rule's conditions in the visual editor (issue 37's review, item 1): an administrator builds them as
 * rows of field / operator / value (a text that contains, two priorities picked in the list's own
 * selector, an empty deadline), saves, and the API receives exactly the builder list those rows say;
 * the detail reads them as sentences; editing again shows the same rows and saves the same list. A list
 * the rows cannot hold (a custom field's item) opens as JSON. nl and en at 1280 and 375 px, axe-clean.
 */
import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { api, expectAccessible, inLanguage, startIn, storeSession } from './support.ts';

const TEXT = {
  nl: {
    name: 'Naam',
    kind: 'Soort',
    trigger: 'Trigger',
    event: 'Gebeurtenis',
    created: 'Ticket aangemaakt',
    add: 'Voorwaarde toevoegen',
    condition: (n: number) => `Voorwaarde ${n}`,
    remove: (n: number) => `Voorwaarde ${n} verwijderen`,
    field: 'Veld',
    operator: 'Vergelijking',
    value: 'Waarde',
    values: 'Waarden',
    description: 'Omschrijving',
    priority: 'Prioriteit',
    deadline: 'Deadline',
    empty: 'is leeg',
    contains: 'bevat',
    oneOf: 'is een van',
    low: 'Laag',
    high: 'Hoog',
    type: 'Wat hij doet',
    note: 'Een interne notitie toevoegen',
    body: 'Notitie',
    save: 'Opslaan',
    edit: 'Bewerken',
    asJson: 'Bewerken als JSON',
    asRows: 'Bewerken als rijen',
    json: 'Voorwaarden als JSON (builder-items)',
  },
  en: {
    name: 'Name',
    kind: 'Kind',
    trigger: 'Trigger',
    event: 'Event',
    created: 'Ticket created',
    add: 'Add condition',
    condition: (n: number) => `Condition ${n}`,
    remove: (n: number) => `Remove condition ${n}`,
    field: 'Field',
    operator: 'Operator',
    value: 'Value',
    values: 'Values',
    description: 'Description',
    priority: 'Priority',
    deadline: 'Deadline',
    empty: 'is empty',
    contains: 'contains',
    oneOf: 'is one of',
    low: 'Low',
    high: 'High',
    type: 'What it does',
    note: 'Add an internal note',
    body: 'Note',
    save: 'Save',
    edit: 'Edit',
    asJson: 'Edit as JSON',
    asRows: 'Edit as rows',
    json: 'Conditions as JSON (builder items)',
  },
} as const;

type Lang = keyof typeof TEXT;

async function pickField(page: Page, n: number, label: string, lang: Lang) {
  const row = page.getByRole('group', { name: TEXT[lang].condition(n) });
  await row.getByRole('combobox', { name: TEXT[lang].field }).fill(label.slice(0, 4));
  await page.getByRole('option', { name: label, exact: true }).click();
  return row;
}

const ruleWrite = (id?: number) => (r: Request) =>
  id === undefined
    ? r.url().endsWith('/api/automation-rules') && r.method() === 'POST'
    : r.url().endsWith(`/api/automation-rules/${id}`) && ['PUT', 'PATCH'].includes(r.method());

for (const [lang, width] of [
  ['nl', 1280],
  ['en', 375],
  ['en', 1280],
  ['nl', 375],
] as const) {
  test(inLanguage(lang, `building a rule's conditions as rows, at ${width} px`), async ({ page }) => {
    const t = TEXT[lang];
    await page.setViewportSize({ width, height: 900 });
    await startIn(page, lang);
    const token = await storeSession(page, 'admin@example.com', { locale: lang });
    const priorities = (await api(page, token, 'GET', '/priorities')).data as { id: number; label: string }[];
    const id = (label: string) => priorities.find((p) => p.label === label)!.id;
    const marker = `Rijen-${lang}-${width}-${Date.now()}`;
    const expected = [
      { where: ['description', 'like', marker] },
      { whereIn: ['priority_id', [id('Laag'), id('Hoog')]] },
      { whereNull: 'deadline' },
    ];

    await page.goto('/automation-rules/create');
    await page.getByRole('textbox', { name: new RegExp(`^${t.name}`) }).fill(`Rijen ${lang} ${width}`);
    await page.getByRole('combobox', { name: new RegExp(`^${t.kind}`) }).click();
    await page.getByRole('option', { name: t.trigger, exact: true }).click();
    await page.getByRole('combobox', { name: t.event }).click();
    await page.getByRole('option', { name: t.created }).click();

    await page.getByRole('button', { name: t.add }).click();
    const first = await pickField(page, 1, t.description, lang);
    await expect(first.getByRole('combobox', { name: t.operator })).toHaveText(t.contains);
    await first.getByRole('textbox', { name: t.value }).fill(marker);

    await page.getByRole('button', { name: t.add }).click();
    const second = await pickField(page, 2, t.priority, lang);
    await expect(second.getByRole('combobox', { name: t.operator })).toHaveText(t.oneOf);
    await second.getByRole('combobox', { name: t.values }).click();
    await page.getByRole('option', { name: t.low, exact: true }).click();
    await page.getByRole('option', { name: t.high, exact: true }).click();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: t.add }).click();
    const third = await pickField(page, 3, t.deadline, lang);
    await third.getByRole('combobox', { name: t.operator }).click();
    await page.getByRole('option', { name: t.empty, exact: true }).click();

    await page.getByRole('button', { name: /^(Toevoegen|Add)$/ }).click();
    await page.getByRole('combobox', { name: new RegExp(`^${t.type}`) }).click();
    await page.getByRole('option', { name: t.note }).click();
    await page.getByRole('textbox', { name: new RegExp(`^${t.body}`) }).fill('Gezien door de regel');
    await expectAccessible(page, `conditions form ${lang} ${width}`);
    await page.screenshot({ path: `/tmp/rules-shots/conditions-form-${lang}-${width}.png`, fullPage: true });

    const posted = page.waitForRequest(ruleWrite());
    const answered = page.waitForResponse((r) => ruleWrite()(r.request()));
    await page.getByRole('button', { name: t.save }).click();
    expect((await posted).postDataJSON().conditions).toEqual(expected);
    const answer = await answered;
    expect(answer.status(), await answer.text()).toBe(201);
    const rule = (await answer.json()) as { id: number };

    try {
      // The detail reads each condition as a sentence, values by their names.
      await page.goto(`/automation-rules/${rule.id}`);
      const lines = page.getByTestId('rule-conditions').getByRole('listitem');
      await expect(lines).toHaveText([
        `${t.description} ${t.contains} ${marker}`,
        `${t.priority} ${t.oneOf} ${t.low}, ${t.high}`,
        `${t.deadline} ${t.empty}`,
      ]);
      await expectAccessible(page, `conditions display ${lang} ${width}`);
      await page.screenshot({
        path: `/tmp/rules-shots/conditions-show-${lang}-${width}.png`,
        fullPage: true,
      });

      // Reopened: the same rows, the same list as JSON; a row removed is the list without its item.
      await page.getByRole('button', { name: t.edit }).click();
      const again = page.getByRole('group', { name: t.condition(2) });
      await expect(again.getByRole('combobox', { name: t.field })).toHaveValue(t.priority);
      await expect(again.getByRole('button', { name: t.low })).toBeVisible();
      await page.getByRole('button', { name: t.asJson }).click();
      await expect(page.getByRole('textbox', { name: t.json })).toHaveValue(
        JSON.stringify(expected, null, 2),
      );
      await page.getByRole('button', { name: t.asRows }).click();
      await page.getByRole('button', { name: t.remove(3) }).click();
      const put = page.waitForRequest(ruleWrite(rule.id));
      await page.getByRole('button', { name: t.save }).click();
      expect((await put).postDataJSON().conditions).toEqual(expected.slice(0, 2));
      await expect(page.getByTestId('rule-conditions').getByRole('listitem')).toHaveCount(2);
    } finally {
      await api(page, token, 'DELETE', `/automation-rules/${rule.id}`);
    }
  });
}

test(inLanguage('en', 'conditions the rows cannot hold open as JSON'), async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await startIn(page, 'en');
  const token = await storeSession(page, 'admin@example.com', { locale: 'en' });
  const conditions = [{ where: ['description', 'like', 'x'] }, { customField: ['serial', 'like', 'AB'] }];
  const rule = await api(page, token, 'POST', '/automation-rules', {
    name: `JSON only ${Date.now()}`,
    kind: 'trigger',
    event: 'ticket_created',
    conditions,
    actions: [{ type: 'note', body: 'seen' }],
  });
  try {
    await page.goto(`/automation-rules/${rule.id}`);
    const lines = page.getByTestId('rule-conditions').getByRole('listitem');
    await expect(lines).toHaveText(['Description contains x', JSON.stringify(conditions[1])]);
    await page.getByRole('button', { name: 'Edit' }).click();
    const json = page.getByRole('textbox', { name: TEXT.en.json });
    await expect(json).toHaveValue(JSON.stringify(conditions, null, 2));
    await expect(page.getByRole('button', { name: TEXT.en.asRows })).toBeDisabled();
    await expectAccessible(page, 'conditions as JSON en 1280');
    await page.screenshot({ path: '/tmp/rules-shots/conditions-json-en-1280.png', fullPage: true });
  } finally {
    await api(page, token, 'DELETE', `/automation-rules/${rule.id}`);
  }
});
