/**
 * Issue 37, item 1: building a trigger in the back office. Second line makes a rule on the create
 * screen (its event, a condition in the list's builder language, an action picked in the action
 * editor: a field and its new value), and the next ticket that matches gets the change, which its
 * history says was made by the rule, and the rule's last-runs tab lists the run. One language per
 * journey, at 1280 and 375 px, axe-clean.
 */
import { expect, test } from './fixtures.ts';
import { api, expectAccessible, inLanguage, startIn, storeSession } from './support.ts';

const TEXT = {
  nl: {
    name: 'Naam',
    kind: 'Soort',
    trigger: 'Trigger',
    event: 'Gebeurtenis',
    created: 'Ticket aangemaakt',
    addCondition: 'Voorwaarde toevoegen',
    condition: 'Voorwaarde 1',
    description: 'Omschrijving',
    conditionValue: 'Waarde',
    type: 'Wat hij doet',
    set: 'Een veld instellen',
    field: 'Veld',
    priority: 'Prioriteit',
    value: 'Nieuwe waarde',
    critical: 'Kritiek',
    save: 'Opslaan',
    history: 'Geschiedenis',
    matchesOne: '1 open ticket voldoet nu aan de voorwaarden',
    showList: 'Toon in de ticketlijst',
    reset: 'Filters wissen',
    runs: 'Laatste uitvoeringen',
    applied: 'Uitgevoerd',
  },
  en: {
    name: 'Name',
    kind: 'Kind',
    trigger: 'Trigger',
    event: 'Event',
    created: 'Ticket created',
    addCondition: 'Add condition',
    condition: 'Condition 1',
    description: 'Description',
    conditionValue: 'Value',
    type: 'What it does',
    set: 'Set a field',
    field: 'Field',
    priority: 'Priority',
    value: 'New value',
    critical: 'Critical',
    save: 'Save',
    history: 'History',
    matchesOne: '1 open ticket meets the conditions now',
    showList: 'Show in the ticket list',
    reset: 'Reset filters',
    runs: 'Last runs',
    applied: 'Applied',
  },
} as const;

for (const [lang, width] of [
  ['nl', 1280],
  ['en', 375],
] as const) {
  test(inLanguage(lang, `building a trigger that raises a priority, at ${width} px`), async ({ page }) => {
    const t = TEXT[lang];
    await page.setViewportSize({ width, height: 900 });
    await startIn(page, lang);
    const token = await storeSession(page, 'admin@example.com', { locale: lang });
    const marker = `Regel-e2e-${width}-${Date.now()}`;
    await page.goto('/automation-rules/create');
    await page.getByRole('textbox', { name: new RegExp(`^${t.name}`) }).fill(`Kritiek ${width}`);
    await page.getByRole('combobox', { name: new RegExp(`^${t.kind}`) }).click();
    await page.getByRole('option', { name: t.trigger, exact: true }).click();
    await page.getByRole('combobox', { name: t.event }).click();
    await page.getByRole('option', { name: t.created }).click();
    // Only this test's tickets: other specs of this worker make tickets too (a description that
    // contains the marker, in the conditions' rows: automation-conditions.spec.ts tests them in full).
    await page.getByRole('button', { name: t.addCondition }).click();
    const row = page.getByRole('group', { name: t.condition });
    await row.getByRole('combobox', { name: t.field }).fill(t.description.slice(0, 4));
    await page.getByRole('option', { name: t.description, exact: true }).click();
    await row.getByRole('textbox', { name: t.conditionValue }).fill(marker);
    await page.getByRole('button', { name: /^(Toevoegen|Add)$/ }).click();
    await page.getByRole('combobox', { name: new RegExp(`^${t.type}`) }).click();
    await page.getByRole('option', { name: t.set }).click();
    // The action's field: the conditions' rows above have a field of their own.
    await page
      .getByRole('combobox', { name: new RegExp(`^${t.field}`) })
      .last()
      .click();
    await page.getByRole('option', { name: t.priority, exact: true }).click();
    const value = page.getByRole('combobox', { name: t.value });
    await value.click();
    await page.getByRole('option', { name: t.critical }).click();
    await expectAccessible(page, `trigger form ${lang} ${width}`);
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/automation-rules') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: t.save }).click();
    const answer = await saved;
    expect(answer.status(), await answer.text()).toBe(201);
    const rule = (await answer.json()) as { id: number; conditions: unknown };
    expect(rule.conditions).toEqual([{ where: ['description', 'like', marker] }]);

    try {
      const companies = (await api(page, token, 'GET', '/companies')).data as { id: number }[];
      const ticket = await api(page, token, 'POST', '/tickets', {
        description: `Server down ${marker}`,
        company_id: companies[0]!.id,
      });
      const priorities = (await api(page, token, 'GET', '/priorities')).data as {
        id: number;
        label: string;
      }[];
      const critical = priorities.find((p) => p.label === 'Kritiek')!.id;
      expect(ticket.priority_id).toBe(critical);
      await page.goto(`/tickets/${ticket.id}`);
      await page.getByRole('tab', { name: t.history }).click();
      await expect(page.getByRole('tabpanel')).toContainText(`Kritiek ${width}`);
      await expectAccessible(page, `ticket history by a rule ${lang} ${width}`);

      // The rule's preview: the one open ticket of this test matches, and the link lists just that one.
      await page.goto(`/automation-rules/${rule.id}`);
      // Its actions read as sentences, the new value by its name.
      await expect(page.getByRole('listitem').filter({ hasText: t.set })).toHaveText(
        `${t.set}: ${t.priority} → ${t.critical}`,
      );
      const preview = page.getByTestId('rule-preview');
      await expect(preview).toContainText(t.matchesOne);
      await expectAccessible(page, `rule preview ${lang} ${width}`);
      await preview.getByRole('link', { name: t.showList }).click();
      await expect(page).toHaveURL(/\/tickets$/);
      await expect(page.getByText(`Server down ${marker}`)).toBeVisible();
      await expect(page.getByText(/^Server down /)).toHaveCount(1);
      // The link's filter is kept as the user's own (so the list reads as left): reset it as a user would.
      // The layout is saved on the server a second later: wait for it, or the next test of this worker
      // opens the list still filtered by this one.
      const reset = page.getByRole('button', { name: t.reset });
      const saved = page.waitForResponse(
        (r) =>
          r.url().endsWith('/api/auth/me') &&
          r.request().method() === 'POST' &&
          !(r.request().postData() ?? '').includes('@builder'),
      );
      await reset.click();
      await expect(reset).toBeDisabled();
      expect((await saved).status()).toBe(200);

      // The rule's log: its last runs, the one on this test's ticket applied.
      await page.goto(`/automation-rules/${rule.id}`);
      await page.getByRole('tab', { name: t.runs }).click();
      const run = page
        .getByRole('tabpanel')
        .getByRole('row')
        .filter({ hasText: ticket.reference as string });
      await expect(run).toHaveCount(1);
      await expect(run).toContainText(t.applied);
      // The event by its name, not its code.
      await expect(run).toContainText(t.created);
      await expectAccessible(page, `rule's last runs ${lang} ${width}`);
    } finally {
      await api(page, token, 'DELETE', `/automation-rules/${rule.id}`);
    }
  });
}

test(
  inLanguage('nl', 'a trigger on a ticket update watches fields picked by their names, shown as chips'),
  async ({ page }) => {
    await startIn(page, 'nl');
    const token = await storeSession(page, 'admin@example.com', { locale: 'nl' });
    await page.goto('/automation-rules/create');
    await page.getByRole('textbox', { name: /^Naam/ }).fill(`Status bewaakt ${Date.now()}`);
    // Saved inactive: a rule on every status change would write into the tickets of this worker's
    // other tests while it exists.
    await page.getByLabel('Actief').uncheck();
    await page.getByRole('combobox', { name: /^Soort/ }).click();
    await page.getByRole('option', { name: 'Trigger', exact: true }).click();
    await page.getByRole('combobox', { name: 'Gebeurtenis' }).click();
    await page.getByRole('option', { name: 'Ticket gewijzigd' }).click();
    // The fields by the ticket list's labels, searched as typed; the help says what none means.
    const watched = page.getByRole('combobox', { name: 'Bij wijziging van' });
    await expect(page.getByText('Leeg: bij elke wijziging.')).toBeVisible();
    await watched.fill('Stat');
    await page.getByRole('option', { name: 'Status', exact: true }).click();
    await watched.fill('Prior');
    await page.getByRole('option', { name: 'Prioriteit', exact: true }).click();
    await page.getByRole('button', { name: /^Toevoegen$/ }).click();
    await page.getByRole('combobox', { name: /^Wat hij doet/ }).click();
    await page.getByRole('option', { name: 'Een interne notitie toevoegen' }).click();
    await page.getByRole('textbox', { name: /^Notitie/ }).fill('Status of prioriteit gewijzigd');
    await expectAccessible(page, 'trigger form with watched fields nl 1280');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/automation-rules') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Opslaan' }).click();
    const answer = await saved;
    expect(answer.status(), await answer.text()).toBe(201);
    const rule = (await answer.json()) as { id: number; event_fields: string[]; active: boolean };
    try {
      expect(rule.event_fields).toEqual(['status_id', 'priority_id']);
      expect(rule.active).toBe(false);
      // The detail reads the names, not the codes.
      await page.goto(`/automation-rules/${rule.id}`);
      const chips = page.getByRole('listitem').filter({ hasText: /^(Status|Prioriteit)$/ });
      await expect(chips).toHaveText(['Status', 'Prioriteit']);
      await expect(page.getByText('status_id')).toHaveCount(0);
      await expectAccessible(page, 'trigger detail with watched fields nl 1280');
    } finally {
      await api(page, token, 'DELETE', `/automation-rules/${rule.id}`);
    }
  },
);
