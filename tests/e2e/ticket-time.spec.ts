/**
 * Issue 18, item 7: time on the ticket. An operator logs time in the ticket's time-registrations tab
 * (hh:mm or minutes, SPEC 5; an activity; a description), pre-filled with them and now, without leaving
 * the ticket; the tab's rows and badge and the header's total follow, and the header shows the time left
 * on the company's running contracts. Second line in Dutch, first line in English; axe-core at 1280 and
 * 375 px.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn, startWithEmptyStorage } from './support.ts';

const TEXTS = {
  nl: {
    tab: /^Urenregistraties/,
    form: 'Urenregistratie hier toevoegen',
    spent: 'Bestede tijd',
    activity: 'Activiteit',
    description: 'Omschrijving',
    operator: 'Operator',
    save: 'Opslaan',
    activityName: 'Support op afstand',
    created: 'Urenregistratie aangemaakt',
    total: (t: string) => `Tijd: ${t}`,
    remaining: (c: string, t: string) => `${c}: nog ${t}`,
  },
  en: {
    tab: /^Time registrations/,
    form: 'Add Time registration here',
    spent: 'Time spent',
    activity: 'Activity',
    description: 'Description',
    operator: 'Operator',
    save: 'Save',
    activityName: 'Remote support',
    created: 'Time registration created',
    total: (t: string) => `Time: ${t}`,
    remaining: (c: string, t: string) => `${c}: ${t} left`,
  },
} as const;

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A new ticket of Jansen BV (which has a service contract and a prepaid card running). */
async function jansenTicket(page: Page, token: string, description: string) {
  const headers = { authorization: `Bearer ${token}` };
  const companies = await page.request.get('/api/companies?builder[0][s]=Jansen', { headers });
  const company = ((await companies.json()) as { data: { id: number; name: string }[] }).data.find(
    (c) => c.name === 'Jansen BV',
  )!;
  const res = await page.request.post('/api/tickets', {
    headers,
    data: { description, company_id: company.id },
  });
  expect(res.status(), await res.text()).toBe(201);
  const contracts = await page.request.get(
    `/api/contracts?builder[0][whereHas][0]=companies&builder[0][whereHas][1][0][where][0]=id&builder[0][whereHas][1][0][where][1]==&builder[0][whereHas][1][0][where][2]=${company.id}`,
    { headers },
  );
  const running = (
    (await contracts.json()) as {
      data: { name: string; minutes_remaining: number; end_date: string | null }[];
    }
  ).data;
  return { id: ((await res.json()) as { id: number }).id, contracts: running };
}

async function registrations(page: Page, token: string, ticketId: number) {
  const res = await page.request.get(
    `/api/time-registrations?builder[0][where][0]=ticket_id&builder[0][where][1]==&builder[0][where][2]=${ticketId}`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  return (
    (await res.json()) as {
      data: { operator_id: number; time_spent: number; description: string; activity_id: number }[];
    }
  ).data;
}

async function me(page: Page, token: string) {
  const res = await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
  return ((await res.json()) as { user: { id: number; full_name: string } }).user;
}

test.beforeEach(async ({ page }) => {
  await startWithEmptyStorage(page);
});

for (const [lang, email, entries] of [
  [
    'nl',
    'admin@example.com',
    [
      ['1:30', 90],
      ['45', 45],
    ],
  ],
  ['en', 'operator@example.com', [['20', 20]]],
] as const) {
  const t = TEXTS[lang];
  test(`(${lang}) ${email} logs time on the ticket without leaving it`, async ({ page }) => {
    const token = await signIn(page, email, 'backoffice', { to: '/', locale: lang });
    const user = await me(page, token);
    const ticket = await jansenTicket(page, token, `Tijd e2e ${lang}`);
    await page.goto(`/tickets/${ticket.id}`);
    const header = page.getByRole('group', {
      name: lang === 'nl' ? 'Tijd op dit ticket' : 'Time on this ticket',
    });
    await expect(header.getByText(t.total('00:00'), { exact: true })).toBeVisible();
    // The company's running contracts, with the time left on each as stored.
    const today = new Date().toISOString().slice(0, 10);
    const running = ticket.contracts.filter((c) => c.end_date === null || c.end_date >= today);
    expect(running.length).toBeGreaterThan(0);
    for (const c of running) {
      await expect(
        header.getByText(t.remaining(c.name, hhmm(c.minutes_remaining)), { exact: true }),
      ).toBeVisible();
    }

    await page.getByRole('tab', { name: t.tab }).click();
    const form = page.getByRole('region', { name: t.form });
    await expect(form).toBeVisible();
    // Pre-filled with me (and now, which the saved row's day shows below).
    await expect(form.getByRole('combobox', { name: t.operator })).toHaveValue(user.full_name);
    await expectAccessible(page, `time form on the ticket, 1280 px, ${lang}`);

    let total = 0;
    for (const [typed, minutes] of entries) {
      await form.getByRole('textbox', { name: t.spent }).fill(typed);
      await form.getByRole('combobox', { name: t.activity }).click();
      await page.getByRole('option', { name: t.activityName }).click();
      await form.getByRole('textbox', { name: t.description }).fill(`Gebeld ${typed}`);
      await form.getByRole('button', { name: t.save }).click();
      await expect(page.getByRole('status').filter({ hasText: t.created }).first()).toBeVisible();
      total += minutes;
      // The row is in the tab, the badge and the header's total follow; the form starts again, empty.
      await expect(page.getByRole('cell', { name: `Gebeld ${typed}` })).toBeVisible();
      await expect(page.getByRole('tab', { name: t.tab })).toContainText(hhmm(total));
      await expect(header.getByText(t.total(hhmm(total)), { exact: true })).toBeVisible();
      await expect(form.getByRole('textbox', { name: t.spent })).toHaveValue('');
      await expect(page).toHaveURL(new RegExp(`/tickets/${ticket.id}$`));
    }
    const saved = await registrations(page, token, ticket.id);
    expect(saved.map((r) => [r.time_spent, r.operator_id, r.description]).sort()).toEqual(
      entries.map(([typed, minutes]) => [minutes, user.id, `Gebeld ${typed}`]).sort(),
    );

    // Every entry with the activity chosen.
    expect(new Set(saved.map((r) => r.activity_id)).size).toBe(1);
    expect(saved[0]!.activity_id).toEqual(expect.any(Number));

    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await page.getByRole('tab', { name: t.tab }).click();
    await expect(page.getByRole('region', { name: t.form })).toBeVisible();
    await expectAccessible(page, `time form on the ticket, 375 px, ${lang}`);
  });
}
