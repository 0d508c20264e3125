/**
 * Issue 18, item 6: standard answers in the message editor. A first-line operator opens a ticket of the
 * demo client, picks a standard answer from the picker (searched by title, with the keyboard), sees its
 * placeholders filled with the ticket's client, reference and their own name, sends it, and the
 * message is in the thread. In English at 375 px the picker filters by category and closes with Escape.
 * axe-core scans the picker at 1280 and 375 px. Each test writes on a ticket of its own.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn, startWithEmptyStorage } from './support.ts';

const OPERATOR = 'operator@example.com';

/** A new ticket of the demo client (client@example.com) and their first company, made by the operator. */
async function clientTicket(page: Page, token: string, description: string) {
  const headers = { authorization: `Bearer ${token}` };
  const clients = await page.request.get(
    '/api/clients?builder[0][where][0]=email&builder[0][where][1]==&builder[0][where][2]=client@example.com&with[0]=companies',
    { headers },
  );
  expect(clients.ok(), await clients.text()).toBe(true);
  const client = ((await clients.json()) as { data: any[] }).data[0]!;
  const res = await page.request.post('/api/tickets', {
    headers,
    data: { description, company_id: client.companies[0].id, client_id: client.id },
  });
  expect(res.status(), await res.text()).toBe(201);
  const id = Number((await res.json()).id);
  const shown = await page.request.get(`/api/tickets/${id}`, { headers });
  const ticket = await shown.json();
  return { id, reference: String((ticket.data ?? ticket).reference), clientName: String(client.full_name) };
}

async function operatorName(page: Page, token: string): Promise<string> {
  const me = await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${token}` } });
  const body = await me.json();
  const user = body.user ?? body;
  return String(user.full_name || [user.first_name, user.last_name].filter(Boolean).join(' '));
}

test.describe('standard answers in the message editor', () => {
  test.beforeEach(async ({ page }) => {
    await startWithEmptyStorage(page);
  });

  test('an operator picks an answer with the keyboard, its placeholders filled, and sends it', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const token = await signIn(page, OPERATOR, 'backoffice', { to: '/' });
    const ticket = await clientTicket(page, token, `Standaardantwoord e2e ${Date.now()}`);
    const me = await operatorName(page, token);
    await page.goto(`/tickets/${ticket.id}`);

    const editor = page.getByRole('textbox', { name: 'Schrijf een bericht…' });
    await editor.click();
    await page.keyboard.type('Eerst dit. ');
    const button = page.getByRole('button', { name: 'Standaardantwoord', exact: true });
    await button.focus();
    await page.keyboard.press('Enter');

    const dialog = page.getByRole('dialog', { name: 'Standaardantwoord invoegen' });
    await expect(dialog).toBeVisible();
    const search = dialog.getByRole('searchbox', { name: 'Zoeken op titel' });
    await expect(search).toBeFocused();
    const options = dialog.getByRole('option');
    await expect(options).toHaveCount(4);
    // Grouped by category: the answers without one come last.
    await expect(dialog.getByRole('group', { name: 'Printers' }).getByRole('option')).toHaveText([
      'Printer herstarten',
    ]);
    await expectAccessible(page, 'standard answer picker (nl, 1280)');

    await page.keyboard.type('ontvangst');
    await expect(options).toHaveText(['Ontvangstbevestiging']);
    await page.keyboard.press('ArrowDown');
    await expect(options.first()).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
    await expect(editor).toBeFocused();

    // Inserted where the cursor was, after the text typed first; every placeholder filled in.
    await expect(editor).toContainText('Eerst dit.');
    await expect(editor).toContainText(`Beste ${ticket.clientName},`);
    await expect(editor).toContainText(`onder referentie ${ticket.reference}`);
    await expect(editor).toContainText(me);
    await expect(editor).not.toContainText('{{');
    expect((await editor.innerText()).indexOf('Eerst dit.')).toBeLessThan(
      (await editor.innerText()).indexOf('Beste'),
    );

    const send = page.getByRole('button', { name: 'Versturen naar klant' });
    await expect(send).toBeEnabled();
    await send.click();
    const sent = page.getByTestId('message').filter({ hasText: `onder referentie ${ticket.reference}` });
    await expect(sent).toBeVisible();
    await expect(sent).toContainText(`Beste ${ticket.clientName},`);
    await expect(sent).not.toHaveAttribute('data-kind', 'internal_note');
    // Stored as the thread shows it: the server kept the filled-in text.
    const thread = await page.request.get(
      `/api/messages?builder[0][where][0]=morphable_type&builder[0][where][1]=ticket&builder[1][where][0]=morphable_id&builder[1][where][1]=${ticket.id}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    const messages = ((await thread.json()) as { data: { message: string }[] }).data;
    expect(messages.some((m) => m.message.includes(`<strong>${ticket.reference}</strong>`))).toBe(true);
  });

  test('in English on a phone the picker filters by category and closes with Escape', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    const token = await signIn(page, OPERATOR, 'backoffice', { to: '/', locale: 'en' });
    const ticket = await clientTicket(page, token, `Standard answer e2e ${Date.now()}`);
    await page.goto(`/tickets/${ticket.id}`);

    const button = page.getByRole('button', { name: 'Standard answer', exact: true });
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Insert a standard answer' });
    await expect(dialog.getByRole('option')).toHaveCount(4);
    await expectAccessible(page, 'standard answer picker (en, 375)');

    await dialog.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Printers' }).click();
    await expect(dialog.getByRole('option')).toHaveText(['Printer herstarten']);
    await dialog.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'No category' }).click();
    await expect(dialog.getByRole('option')).toHaveText(['Ontvangstbevestiging', 'Ticket afgesloten']);

    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(button).toBeFocused();
    await expect(page.getByRole('textbox', { name: 'Write a message…' })).toHaveText('');
  });
});
