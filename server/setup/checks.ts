import type { Config } from '../config.ts';
import { createMailer } from '../mail/mailer.ts';
import type { NewMailbox } from '../tenancy/create-tenant.ts';

/*
 * The setup page's two tests (issue 32): a test mail through the installation's outgoing mail, and a
 * login to a mailbox that counts its INBOX. Both reach out from the server to an address a visitor
 * names, and both run before anyone has signed in: the routes allow them only while no tenant exists,
 * and at most CHECKS_PER_MINUTE of them per process.
 */

export type CheckAnswer = { ok: true; messages?: number; file?: boolean } | { ok: false; error: string };

/** What the check says went wrong: the error's message, one line, never longer than this. */
const ERROR_LENGTH = 300;
const oneLine = (error: unknown) =>
  String((error as Error)?.message ?? error)
    .replace(/\s+/g, ' ')
    .slice(0, ERROR_LENGTH);

/**
 * One mail to `to` as every mail of the desk goes: through SMTP_URL, or written under DATA_DIR/mail
 * when it is not set (`file: true` says so, the page tells where to set it).
 */
export async function sendTestMail(
  config: Pick<Config, 'smtpUrl' | 'dataDir' | 'mailFrom'>,
  to: string,
  language: 'nl' | 'en' | 'de',
  log: Parameters<typeof createMailer>[1],
): Promise<CheckAnswer> {
  const mailer = createMailer(config, log);
  try {
    await mailer.send({ to, subject: TEST_SUBJECT[language], text: TEST_TEXT[language] });
    return { ok: true, file: !config.smtpUrl };
  } catch (error) {
    return { ok: false, error: oneLine(error) };
  } finally {
    mailer.close();
  }
}

const TEST_SUBJECT = {
  nl: 'Testmail van je servicedesk',
  en: 'Test mail from your service desk',
  de: 'Testmail Ihres Service-Desks',
};
const TEST_TEXT = {
  nl: 'Deze mail bevestigt dat de servicedesk e-mail kan versturen.',
  en: 'This mail confirms that the service desk can send e-mail.',
  de: 'Diese Mail bestätigt, dass der Service-Desk E-Mails senden kann.',
};

/** Logs in to the mailbox and counts the messages in its INBOX (the folder the fetcher reads). */
export async function testMailbox(box: NewMailbox): Promise<CheckAnswer> {
  const { ImapFlow } = await import('imapflow');
  const client = new ImapFlow({
    host: box.host,
    port: box.port,
    secure: box.tls,
    auth: { user: box.username, pass: box.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 15_000,
  });
  // A dropped connection arrives as an event as well as in the awaited call: never unhandled.
  client.on('error', () => undefined);
  try {
    await client.connect();
    const status = await client.status('INBOX', { messages: true });
    if (!status) return { ok: false, error: 'INBOX could not be opened' };
    return { ok: true, messages: status.messages ?? 0 };
  } catch (error) {
    const answer = error as { authenticationFailed?: boolean; responseText?: string };
    return { ok: false, error: oneLine(answer.responseText || error) };
  } finally {
    await client.logout().catch(() => client.close());
  }
}

export const CHECKS_PER_MINUTE = 10;

/** A fixed window per process: enough for a person trying settings, too few for a scan. */
export class CheckBudget {
  private windowStart = 0;
  private used = 0;

  constructor(
    private readonly perMinute = CHECKS_PER_MINUTE,
    private readonly clock: () => number = Date.now,
  ) {}

  take(): boolean {
    const now = this.clock();
    if (now - this.windowStart >= 60_000) {
      this.windowStart = now;
      this.used = 0;
    }
    if (this.used >= this.perMinute) return false;
    this.used += 1;
    return true;
  }
}
