/**
 * A real SMTP server on loopback that keeps what it receives, parsed: API tests and browser tests read
 * the links out of the mails the server sends.
 */
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ParsedMail {
  subject?: string;
  text?: string;
  html?: string | false;
  to?: { text: string } | { text: string }[];
  /** The threading headers (issue 19): `<id@domain>` each. */
  messageId?: string;
  inReplyTo?: string;
  references?: string | string[];
  replyTo?: { text: string; value: { address?: string }[] };
  headers?: Map<string, unknown>;
}

// mailparser ships no types (and @types/mailparser is not a dependency): its one function, typed here.
const { simpleParser } = createRequire(import.meta.url)('mailparser') as {
  simpleParser(source: Buffer | string): Promise<ParsedMail>;
};

/** Parses a raw RFC 822 mail (an .eml file, say) the way the loopback server does. */
export const parseMail = (raw: Buffer | string): Promise<ParsedMail> => simpleParser(raw);

export function recipients(mail: ParsedMail): string {
  return [mail.to ?? []]
    .flat()
    .map((a) => a.text)
    .join(', ');
}

export interface LoopbackSmtp {
  url: string;
  received: ParsedMail[];
  /** The first mail received after `count` mails (default: the next one), waiting up to 10 s. */
  next(count?: number): Promise<ParsedMail>;
  /** While true, every recipient is refused (550), as a mail server that is down for us would. */
  refusing: boolean;
  /** So many recipients are refused next, then the server accepts again. */
  refuseNext: number;
  /** The reply code of a refusal: 550 (permanent) unless set, e.g. 451 (try again later). */
  refusalCode: number;
  /** Milliseconds each mail's data is held before it is accepted (a slow server); default 0. */
  holdMs: number;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<LoopbackSmtp> {
  const received: ParsedMail[] = [];
  const state = { refusing: false, refuseNext: 0, refusalCode: 550, holdMs: 0 };
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: nodemailer would otherwise upgrade to the server's self-signed certificate.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (state.refuseNext > 0) state.refuseNext -= 1;
      else if (!state.refusing) return callback();
      const refused = Object.assign(new Error('Mailbox unavailable'), { responseCode: state.refusalCode });
      callback(refused);
    },
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        simpleParser(Buffer.concat(chunks)).then(
          (mail) => {
            setTimeout(() => {
              received.push(mail);
              callback();
            }, state.holdMs);
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    get refusing() {
      return state.refusing;
    },
    set refusing(value: boolean) {
      state.refusing = value;
    },
    get refuseNext() {
      return state.refuseNext;
    },
    set refuseNext(value: number) {
      state.refuseNext = value;
    },
    get refusalCode() {
      return state.refusalCode;
    },
    set refusalCode(value: number) {
      state.refusalCode = value;
    },
    get holdMs() {
      return state.holdMs;
    },
    set holdMs(value: number) {
      state.holdMs = value;
    },
    async next(count = received.length) {
      const deadline = Date.now() + 10_000;
      while (received.length <= count) {
        if (Date.now() > deadline) throw new Error(`no mail arrived after the first ${count}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return received[count]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
