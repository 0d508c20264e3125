import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  /** Set for an image the HTML shows inline (`<img src="cid:…">`). */
  cid?: string;
}

export interface MailMessage {
  to: string | string[];
  cc?: string[];
  bcc?: string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /** `<id@domain>`: set by the outbox on every mail it queues and recorded with it (issue 19). */
  messageId?: string;
  /** The Message-ID this mail answers, and the conversation's before it: mail programs thread by them. */
  inReplyTo?: string;
  references?: string[];
  /** Where answers go: the tenant's mailbox, so they come back into the ticket. */
  replyTo?: string;
  headers?: Record<string, string>;
}

/** A mail without attachments: what the outbox can hold as it is. */
export type PlainMail = Omit<MailMessage, 'attachments'>;

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Closes the SMTP connection pool, if any. */
  close(): void;
}

type MailLog = Pick<FastifyBaseLogger, 'info' | 'error'>;

/**
 * Outgoing mail. With `SMTP_URL` (smtp:// or smtps://) through that server; without it every message is
 * written as an RFC 822 `.eml` file under `DATA_DIR/mail` and its path logged (a laptop needs no mail
 * server, and the file can be opened in any mail client). Message bodies are never logged: they hold
 * links with secrets.
 */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'dataDir' | 'mailFrom'>, log: MailLog): Mailer {
  const smtp = config.smtpUrl;
  const transport: Transporter = smtp
    ? nodemailer.createTransport(smtp)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const mailDir = join(config.dataDir, 'mail');

  return {
    async send(message) {
      const info = await transport.sendMail({ from: config.mailFrom, ...message });
      if (smtp) {
        log.info({ to: message.to, subject: message.subject, messageId: info.messageId }, 'mail sent');
        return;
      }
      const raw = (info as { message?: Buffer | string }).message;
      if (raw === undefined) throw new Error('mailer: the stream transport returned no message');
      await mkdir(mailDir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = join(mailDir, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, raw, { mode: 0o600 });
      log.info(
        { to: message.to, subject: message.subject, file },
        'mail written to file (SMTP_URL is not set)',
      );
    },
    close() {
      transport.close();
    },
  };
}
