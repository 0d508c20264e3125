/**
 * The message thread (issue 5) by mail: an operator's reply with a file reaches the client's mailbox with
 * the file and shows in the client portal, and a reply the mail server refuses stands while the operator
 * is told the mail did not go. On a server of its own whose mail goes to a loopback SMTP server. The
 * thread on the page: thread-portal.spec.ts and thread-backoffice.spec.ts.
 */
import { expect, test } from './fixtures.ts';
import { recipients, startSmtp, type LoopbackSmtp } from '../api/smtp.ts';
import { startServer, type E2eServer } from './server.ts';
import { signIn } from './support.ts';
import { ADMIN, anyTicket, CLIENT, editor, messagesOf, toast } from './thread-support.ts';

/** A server of its own whose mail goes to a loopback SMTP server (started for the one test that uses it). */
const mailTest = test.extend<object, { desk: { server: E2eServer; smtp: LoopbackSmtp } }>({
  desk: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture uses from this pattern.
    async ({}, use) => {
      const smtp = await startSmtp();
      const server = await startServer({ SMTP_URL: smtp.url });
      await use({ server, smtp });
      await server.stop();
      await smtp.close();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ desk }, use) => use(desk.server.baseURL),
});

mailTest(
  'an operator sends a reply with a file to the client: the mail arrives with it and the client reads it',
  async ({ page, desk }) => {
    const ticket = await anyTicket(page.request, 7, { own: true });
    await signIn(page, ADMIN, 'backoffice', { to: `/tickets/${ticket.id}` });
    const text = `Antwoord aan de klant ${Date.now()}`;
    await editor(page).click();
    await page.keyboard.type(text);
    await page.getByTestId('message-files').setInputFiles({
      name: 'uitleg.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Zo werkt het.\n'),
    });
    const before = desk.smtp.received.length;
    await page.getByRole('button', { name: 'Versturen naar klant' }).click();
    await expect(toast(page, 'Bericht verstuurd.')).toBeVisible();
    const item = messagesOf(page).filter({ hasText: text });
    await expect(item).toHaveAttribute('data-kind', 'received');
    await expect(item.getByTestId('hidden-from-client')).toHaveCount(0);

    const mail = await desk.smtp.next(before);
    expect(recipients(mail)).toContain(CLIENT);
    expect(mail.html || mail.text).toContain(text);
    // mailparser's answer has the attachments too; the shared ParsedMail type leaves them out.
    const files = (mail as { attachments?: { filename?: string }[] }).attachments ?? [];
    expect(files.map((a) => a.filename)).toContain('uitleg.txt');

    const client = await page.context().browser()!.newContext({ baseURL: desk.server.baseURL });
    const clientPage = await client.newPage();
    await signIn(clientPage, CLIENT, 'portal', { to: `/app/tickets/${ticket.id}` });
    const seen = messagesOf(clientPage).filter({ hasText: text });
    await expect(seen).toHaveAttribute('data-kind', 'received');
    await expect(seen.getByRole('link', { name: 'uitleg.txt' })).toBeVisible();
    await client.close();

    // When the mail server refuses it, the reply stands and the operator is told the mail did not go.
    desk.smtp.refusing = true;
    try {
      const undelivered = `Niet bezorgd ${Date.now()}`;
      await editor(page).click();
      await page.keyboard.type(undelivered);
      await page.getByRole('button', { name: 'Versturen naar klant' }).click();
      await expect(
        toast(
          page,
          'Het bericht is opgeslagen, maar de e-mail aan de klant kon nog niet worden verstuurd. Dat wordt automatisch opnieuw geprobeerd.',
        ),
      ).toBeVisible();
      await expect(messagesOf(page).filter({ hasText: undelivered })).toHaveCount(1);
    } finally {
      desk.smtp.refusing = false;
    }
  },
);
