/**
 * The message thread (issue 5) in the client portal: what the client sees of a ticket's conversation
 * against what the API gives an operator, the editor's height, a reply with a file and an inline image,
 * the deep link, a script typed into the editor that must not run, an inline image the server refuses,
 * and an asset's thread in English on a small screen. Tickets are picked by what the API says (other
 * test files share the server); axe-core scans each screen. The back office: thread-backoffice.spec.ts.
 */
import { expect, test } from './fixtures.ts';
import { expectAccessible, signIn } from './support.ts';
import {
  anyTicket,
  api,
  CLIENT,
  clearStorageOnFirstLoad,
  editor,
  messagesOf,
  thread,
  threadPath,
  ticketWithInternalNote,
  ticketWithMessages,
  toast,
} from './thread-support.ts';

const UPLOADING = 'Afbeelding wordt geüpload…';

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

test.describe('message thread', () => {
  test.beforeEach(clearStorageOnFirstLoad);

  test('the client reads a ticket thread without the internal notes the operator sees', async ({ page }) => {
    const { ticket, messages } = await ticketWithInternalNote(page.request);
    const visible = messages.filter((m) => m.visible_to_client);
    const internal = messages.filter((m) => !m.visible_to_client);
    await signIn(page, CLIENT, 'portal', { to: `/app/tickets/${ticket.id}` });
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(ticket.reference) })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Berichten' })).toBeVisible();
    await expect(messagesOf(page)).toHaveCount(visible.length);
    expect(
      await messagesOf(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-message-id'))),
    ).toEqual(visible.map((m) => String(m.id)));
    for (const note of internal) await expect(page.locator(`#message-${note.id}`)).toHaveCount(0);
    await expect(page.locator('[data-kind="internal_note"]')).toHaveCount(0);
    await expect(page.getByText('Niet zichtbaar voor de klant')).toHaveCount(0);

    // Sent (from the client) and received (to the client), with the author's name and a relative time.
    const fromClient = visible.find((m) => m.is_from_client && m.type === 'normal');
    const toClient = visible.find((m) => !m.is_from_client && m.type === 'normal');
    if (fromClient) {
      const item = page.locator(`#message-${fromClient.id}`);
      await expect(item).toHaveAttribute('data-kind', 'sent');
      await expect(item.getByText('Verstuurd', { exact: true })).toBeVisible();
      await expect(item.getByRole('heading', { name: fromClient.actor.full_name })).toBeVisible();
      await expect(item.locator('time')).toHaveText(/geleden|gisteren|eergisteren|vorige|nu/);
    }
    if (toClient) {
      const item = page.locator(`#message-${toClient.id}`);
      await expect(item).toHaveAttribute('data-kind', 'received');
      await expect(item.getByText('Ontvangen', { exact: true })).toBeVisible();
      // No picture reachable here: the avatar falls back to the acronym.
      await expect(item.getByText(toClient.actor.acronym, { exact: true })).toBeVisible();
    }
    const status = visible.find((m) => m.type === 'status-changed');
    if (status) {
      await expect(page.locator(`#message-${status.id}`)).toContainText(
        `Status gewijzigd naar ${status.data.status.name} door ${status.actor.full_name}`,
      );
    }
    // The files: name, size in units of 1024, a link that downloads the file.
    const withFile = visible.find((m) => m.attachments.some((a: any) => !a.is_embedded))!;
    const file = withFile.attachments.find((a: any) => !a.is_embedded);
    const link = page.locator(`#message-${withFile.id}`).getByRole('link', { name: file.name });
    await expect(link).toBeVisible();
    const expectedSize =
      file.size < 1024 ? `${file.size} B` : `${(file.size / 1024).toFixed(1).replace('.', ',')} KB`;
    await expect(page.locator(`#message-${withFile.id}`).getByText(expectedSize)).toBeVisible();
    const res = await page.request.get((await link.getAttribute('href'))!);
    expect(res.status()).toBe(200);
    await expectAccessible(page, 'portal ticket thread');
  });

  for (const width of [1280, 375]) {
    test(`the editor is 310 px high, and the send button is where it will be while the editor loads, at ${width} px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      // The editor's code (its own chunk) is held until the form has shown without it: the placeholder
      // in its place (src/custom/thread/editorSize.ts) is what the send button sits under meanwhile.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/static/MessageEditor-*.js', async (route) => {
        await held;
        await route.continue();
      });
      const ticket = await ticketWithMessages(page.request);
      await signIn(page, CLIENT, 'portal', { to: `/app/tickets/${ticket.id}` });
      const send = page.getByRole('button', { name: 'Versturen', exact: true });
      await expect(send).toBeVisible();
      // The thread's messages load beside the form (their own call): what is measured is the editor's
      // arrival, so they are there first.
      await expect(messagesOf(page).first()).toBeVisible();
      await expect(page.getByRole('toolbar')).toHaveCount(0);
      const before = (await send.boundingBox())!;

      release();
      const toolbar = page.getByRole('toolbar');
      await expect(toolbar).toBeVisible();
      await expect(editor(page)).toBeVisible();
      expect((await send.boundingBox())!.y).toBe(before.y);
      // SPEC 9: the writing area, below the toolbar, is 310 px high.
      const area = await toolbar.evaluate((bar) => bar.nextElementSibling!.getBoundingClientRect().height);
      expect(area).toBe(310);
    });
  }

  test('the client replies with a file and an inline image; it shows at once with the toast', async ({
    page,
  }) => {
    const ticket = await anyTicket(page.request, 1);
    const before = await thread(page.request, CLIENT, ticket.id);
    await signIn(page, CLIENT, 'portal', { to: `/app/tickets/${ticket.id}` });
    await expect(page.getByRole('heading', { level: 2, name: 'Berichten' })).toBeVisible();
    const text = `Antwoord met bijlage ${Date.now()}`;
    await editor(page).click();
    await page.keyboard.type(text);
    await page.getByTestId('editor-image-input').setInputFiles({
      name: 'schermafdruk.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await expect(editor(page).locator('img')).toHaveCount(1);
    await page.getByTestId('message-files').setInputFiles({
      name: 'notitie.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Hallo vanuit de test\n'),
    });
    await expect(page.getByRole('button', { name: 'notitie.txt verwijderen' })).toBeVisible();
    await expectAccessible(page, 'portal reply form filled in');
    await page.getByRole('button', { name: 'Versturen', exact: true }).click();
    await expect(toast(page, 'Bericht verstuurd.')).toBeVisible();

    const item = messagesOf(page).filter({ hasText: text });
    await expect(item).toHaveCount(1);
    await expect(item).toHaveAttribute('data-kind', 'sent');
    await expect(item.locator('.message-body img')).toHaveCount(1);
    await expect
      .poll(() => item.locator('.message-body img').evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(1);
    const link = item.getByRole('link', { name: 'notitie.txt' });
    await expect(link).toBeVisible();
    const download = await page.request.get((await link.getAttribute('href'))!);
    expect(download.status()).toBe(200);
    expect(await download.text()).toBe('Hallo vanuit de test\n');
    // The form is empty again.
    await expect(editor(page)).toHaveText('');
    await expect(page.getByRole('button', { name: 'notitie.txt verwijderen' })).toHaveCount(0);

    const after = await thread(page.request, CLIENT, ticket.id);
    expect(after).toHaveLength(before.length + 1);
    const stored = after.find((m) => m.message.includes(text));
    expect(stored).toMatchObject({ is_from_client: true, visible_to_client: true });
    expect(stored.attachments.map((a: any) => [a.name, a.is_embedded]).sort()).toEqual([
      ['notitie.txt', false],
      ['schermafdruk.png', true],
    ]);
  });

  test('a deep link scrolls to the message and highlights it', async ({ page }) => {
    // A ticket of the client with at least two messages (other tests change which ones come first).
    const tickets = (await api(page.request, CLIENT, '/tickets?builder[0][paginate]=100')).data as any[];
    let messages: any[] = [];
    let ticket: any;
    for (const candidate of tickets.slice(2)) {
      messages = await thread(page.request, CLIENT, candidate.id);
      ticket = candidate;
      if (messages.length > 1) break;
    }
    expect(messages.length > 1, 'a ticket of the client with two messages').toBe(true);
    const target = messages[1];
    await signIn(page, CLIENT, 'portal', { to: `/app/tickets/${ticket.id}#message-${target.id}` });
    const item = page.locator(`#message-${target.id}`);
    await expect(item).toHaveAttribute('data-highlighted', 'true');
    await expect(item).toBeInViewport();
    await expect(page.locator('[data-highlighted="true"]')).toHaveCount(1);
  });

  test('markup typed into the editor is text and never runs', async ({ page }) => {
    const ticket = await anyTicket(page.request, 4);
    const payload = '<img src=x onerror=window.__xss=1>';
    await signIn(page, CLIENT, 'portal', { to: `/app/tickets/${ticket.id}` });
    await editor(page).click();
    await page.keyboard.type(payload);
    await page.getByRole('button', { name: 'Versturen', exact: true }).click();
    await expect(toast(page, 'Bericht verstuurd.')).toBeVisible();
    const item = messagesOf(page).filter({ hasText: payload });
    await expect(item).toHaveCount(1);
    await expect(item.locator('.message-body img')).toHaveCount(0);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    await page.reload();
    await expect(messagesOf(page).filter({ hasText: payload })).toHaveCount(1);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
  });

  test('an inline image the server refuses is not inserted, its error shows and loading ends', async ({
    page,
  }) => {
    const ticket = await anyTicket(page.request, 5);
    await signIn(page, CLIENT, 'portal', { to: `/app/tickets/${ticket.id}` });
    await expect(editor(page)).toBeVisible();
    await page.getByTestId('editor-image-input').setInputFiles({
      name: 'kapot.png',
      mimeType: 'image/png',
      buffer: Buffer.from('dit is geen afbeelding'),
    });
    // The server's refusal, in the app's language.
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'De inhoud van het bestand past niet bij de extensie .png.' }),
    ).toBeVisible();
    // The upload's bar is gone (the ticket's contract balance bars are progress bars too).
    await expect(page.getByRole('progressbar', { name: UPLOADING })).toHaveCount(0);
    await expect(editor(page).locator('img')).toHaveCount(0);
    // The editor still works: text can be typed and the form sent.
    await editor(page).click();
    await page.keyboard.type('Na een mislukte upload');
    await expect(page.getByRole('button', { name: 'Versturen', exact: true })).toBeEnabled();
  });

  test('in English at 375 px: an asset thread fits the screen', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 760 });
    const assets = (await api(page.request, CLIENT, '/assets?builder[0][paginate]=100')).data as any[];
    let asset: any;
    let messages: any[] = [];
    for (const a of assets) {
      messages = (await api(page.request, CLIENT, threadPath('asset', a.id))).data;
      if (messages.length) {
        asset = a;
        break;
      }
    }
    expect(!asset, 'no asset of the client with messages').toBe(false);
    await signIn(page, CLIENT, 'portal', { to: `/app/assets/${asset.id}`, locale: 'en' });
    await expect(page.getByRole('heading', { level: 2, name: 'Messages' })).toBeVisible();
    await expect(messagesOf(page)).toHaveCount(messages.length);
    const first = messages[0];
    await expect(page.locator(`#message-${first.id}`)).toContainText(
      first.is_from_client ? 'Sent' : 'Received',
    );
    await expect(page.getByRole('textbox', { name: 'Write a message…' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page, 'asset thread in English at 375 px');
  });
});
