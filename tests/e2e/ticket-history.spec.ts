/**
 * The operator's workspace on a ticket (issue 18, items 4 and 5), as an operator works it: quick actions
 * in the detail's header (assign to me, status, priority) change the ticket without the edit form, the
 * thread tells the status change, and the History tab lists each change with who made it and the names
 * from and to; an edited message says so with its time; a client's message has no delete button.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { api, expectAccessible, storeSession } from './support.ts';

/** A ticket of Jansen BV of this test alone, priority Laag, no operator. */
async function newTicket(page: Page, token: string, description: string): Promise<number> {
  const companies = await api(
    page,
    token,
    'GET',
    '/companies?builder[0][where][0]=name&builder[0][where][1]==&builder[0][where][2]=Jansen BV',
  );
  const priorities = await api(
    page,
    token,
    'GET',
    '/priorities?builder[0][where][0]=label&builder[0][where][1]==&builder[0][where][2]=Laag',
  );
  const ticket = await api(page, token, 'POST', '/tickets', {
    description,
    company_id: companies.data[0].id,
    priority_id: priorities.data[0].id,
  });
  return ticket.id as number;
}

/** A success toast with this text, closed once seen (toasts show one at a time). */
async function expectToast(page: Page, text: string) {
  const toast = page.getByRole('status').filter({ hasText: text });
  await expect(toast).toBeVisible();
  await toast.getByRole('button').click();
  await expect(toast).toHaveCount(0);
}

/** Picks `option` in the quick-action select labelled `label`. */
async function pick(page: Page, label: string, option: string) {
  await page.getByRole('group', { name: 'Snelle acties' }).getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a first-line operator assigns, sets status and priority from the header and reads the history', async ({
  page,
}) => {
  const token = await storeSession(page, 'operator@example.com');
  const id = await newTicket(page, token, 'Snelle acties en geschiedenis');
  await page.goto(`/tickets/${id}`);
  const quick = page.getByRole('group', { name: 'Snelle acties' });

  await quick.getByRole('button', { name: 'Aan mij toewijzen' }).click();
  await expectToast(page, 'Ticket bijgewerkt');
  await expect(quick.getByRole('combobox', { name: 'Operator' })).toHaveText('Daan Visser');
  // Assigned to the operator: the button has done its work.
  await expect(quick.getByRole('button', { name: 'Aan mij toewijzen' })).toHaveCount(0);

  await pick(page, 'Status', 'In behandeling');
  await expectToast(page, 'Ticket bijgewerkt');
  await pick(page, 'Prioriteit', 'Hoog');
  await expectToast(page, 'Ticket bijgewerkt');
  await expect(quick.getByRole('combobox', { name: 'Prioriteit' })).toHaveText('Hoog');
  // The status change is in the thread as an edit's would be (SPEC 4).
  await expect(page.getByTestId('message-thread')).toContainText('In behandeling');

  const tabs = page.getByRole('tablist', { name: 'Tabbladen van het record' });
  await tabs.getByRole('tab', { name: /^Geschiedenis/ }).click();
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('columnheader')).toHaveText([
    'Wanneer',
    'Door',
    'Door SLA',
    'Door regel',
    'Wat',
    'Van',
    'Naar',
  ]);
  const rows = panel.getByRole('row');
  // Newest first: priority, status, operator; each by Daan Visser.
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('Prioriteit');
  await expect(rows.nth(1)).toContainText('LaagHoog');
  await expect(rows.nth(2)).toContainText('Status');
  await expect(rows.nth(2)).toContainText('NieuwIn behandeling');
  await expect(rows.nth(3)).toContainText('OperatorDaan Visser');
  for (const n of [1, 2, 3]) await expect(rows.nth(n)).toContainText('Daan Visser');
  // The moment reads with its time of day (x-time), as changes within one day are told apart by it.
  await expect(rows.nth(1).getByRole('cell').first()).toHaveText(/^\d{2} \w+ \d{2} \d{2}:\d{2}$/);
  await expectAccessible(page, 'ticket detail, history tab, 1280 px');
});

test('on a phone in English the quick actions and the history tab are there and accessible', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const token = await storeSession(page, 'admin@example.com', { locale: 'en' });
  const id = await newTicket(page, token, 'History on a phone');
  const statuses = await api(page, token, 'GET', '/ticket-statuses?builder[0][paginate]=100');
  const waiting = statuses.data.find((s: { name: string }) => s.name === 'Wacht op klant');
  await api(page, token, 'PUT', `/tickets/${id}`, { status_id: waiting.id });
  await page.goto(`/tickets/${id}`);
  await expect(
    page.getByRole('group', { name: 'Quick actions' }).getByRole('button', { name: 'Assign to me' }),
  ).toBeVisible();
  await expectAccessible(page, 'ticket detail with quick actions, 375 px');
  // The tab bar scrolls on a phone; the last tab is scrolled to as a finger would.
  await page.getByRole('tab', { name: /^History/ }).click();
  const rows = page.getByRole('tabpanel').getByRole('row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('Sanne Bakker');
  await expect(rows.nth(1)).toContainText('Status');
  await expectAccessible(page, 'ticket detail, history tab, 375 px');
});

test("an edited message says so with its time; a client's message offers no delete", async ({ page }) => {
  const token = await storeSession(page, 'admin@example.com');
  const id = await newTicket(page, token, 'Bewerkte berichten');
  const note = await api(page, token, 'POST', '/messages', {
    message: '<p>Eerste versie</p>',
    morphable_type: 'ticket',
    morphable_id: id,
  });
  await api(page, token, 'PUT', `/messages/${note.id}`, { message: '<p>Tweede versie</p>' });
  await page.goto(`/tickets/${id}`);
  const edited = page.locator(`[data-message-id="${note.id}"]`);
  await expect(edited).toContainText('Tweede versie');
  await expect(edited.getByTestId('message-edited')).toHaveText(/^bewerkt \d{1,2} \w+ \d{2}:\d{2}$/);
  await expect(edited.getByRole('button', { name: 'Verwijderen' })).toBeVisible();

  // A ticket of the demo with the client's own messages: none offers a delete button.
  const fromClient = await api(
    page,
    token,
    'GET',
    '/messages?builder[0][where][0]=is_from_client&builder[0][where][1]==&builder[0][where][2]=true' +
      '&builder[1][where][0]=morphable_type&builder[1][where][1]==&builder[1][where][2]=ticket&builder[2][paginate]=1',
  );
  const message = fromClient.data[0];
  await page.goto(`/tickets/${message.morphable_id}`);
  const clientMessage = page.locator(`[data-message-id="${message.id}"]`);
  await expect(clientMessage).toBeVisible();
  await expect(clientMessage.getByRole('button', { name: 'Bewerken' })).toBeVisible();
  await expect(clientMessage.getByRole('button', { name: 'Verwijderen' })).toHaveCount(0);
});

test('the quick selects sit two to a row on a phone and side by side on a desktop', async ({ page }) => {
  const token = await storeSession(page, 'admin@example.com');
  const id = await newTicket(page, token, 'Snelle acties op een telefoon');
  const quick = page.getByRole('group', { name: 'Snelle acties' });
  const box = async (label: string) => (await quick.getByRole('combobox', { name: label }).boundingBox())!;

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/tickets/${id}`);
  await expect(quick.getByRole('combobox', { name: 'Prioriteit' })).toBeVisible();
  const [operator, status, priority] = [await box('Operator'), await box('Status'), await box('Prioriteit')];
  expect(status.y).toBe(operator.y);
  expect(status.x).toBeGreaterThan(operator.x + operator.width);
  expect(priority.y).toBeGreaterThan(operator.y + operator.height);
  expect(status.x + status.width).toBeLessThanOrEqual(375);
  await expectAccessible(page, 'ticket quick actions at 375 px');

  await page.setViewportSize({ width: 1280, height: 800 });
  // The widths are CSS breakpoints: the new layout is there at the next measurement.
  expect((await box('Prioriteit')).y).toBe((await box('Operator')).y);
});
