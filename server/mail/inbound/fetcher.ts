/**
 * The IMAP fetcher (issue 19, item 1): every instance runs one; it fetches each active mailbox of every
 * tenant when it is due. A mailbox is claimed for one round by moving its `next_fetch_at` (so instances
 * take turns), but nothing depends on that: two fetchers that read the same mail at once keep it once
 * (process.ts, the unique row per mailbox and Message-ID).
 *
 * One round: connect, read the new mails' bytes (UIDs above `last_uid`, at most MAX_MAILS and MAX_BYTES
 * of them), log out; only then each mail in its own short transactions: the IMAP conversation never holds
 * a transaction (PGlite has one connection; a slow mail server must not stall the API). The place read up
 * to (`last_uid`) moves past every mail taken; a mail that cannot be read is recorded 'rejected' and
 * skipped, never retried for ever. Each mail is read in the reader's thread (parse-thread.ts); when no
 * reader can start, the round stops there and the rest waits, as when the database is gone.
 *
 * A failing mailbox (refused login, unreachable host, dropped connection) is tried again after
 * MAIL_FETCH_MS × 4ⁿ⁻¹ up to MAIL_FETCH_RETRY_MAX_MS and shown as failing (`status`, `failing_since`,
 * `last_error`) until a round succeeds. Every socket error is handled: nothing a mail server does can end
 * the process.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { isDatabaseUnavailable } from '../../db/unavailable.ts';
import { WakeLoop } from '../../system/wake-loop.ts';
import { decryptPassword } from './secret.ts';
import { ReaderUnavailable } from './parse-thread.ts';
import type { InboundDeps, MailboxRef } from './deps.ts';
import { processMail, type Outcome } from './process.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** Mails read per round: the rest in the next round, at once. */
const MAX_MAILS = 25;
/** Bytes read per round (a mail larger than this alone is still read, if allowed at all). */
const MAX_BYTES = 64 * 1024 * 1024;

export interface FetcherSettings {
  mailFetchMs: number;
  mailFetchRetryMaxMs: number;
  attachmentMaxBytes: number;
}

export interface FetchResult {
  outcomes: Outcome[];
  /** More new mail waits than one round takes. */
  more: boolean;
}

interface MailboxRow extends MailboxRef {
  host: string;
  port: number;
  tls: boolean;
  passwordEncrypted: string | null;
  uidValidity: string | null;
  lastUid: number;
  failures: number;
}

/** What the mail server did wrong, apart from the database's own errors. */
class ImapFailure extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** A database error met while reading the mailbox (recording a skipped mail): not the mailbox's fault. */
class DatabaseError extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

const interval = (ms: number) => `${Math.max(1, Math.ceil(ms))} milliseconds`;

export class MailFetcher {
  private readonly loop: WakeLoop;

  constructor(
    private readonly deps: InboundDeps & { log: Log },
    private readonly settings: FetcherSettings,
  ) {
    this.loop = new WakeLoop(
      () => this.drain(),
      Math.min(Math.max(settings.mailFetchMs, 100), 10_000),
      (error) => deps.log.error({ err: error }, 'mail fetcher: lost its database'),
    );
  }

  start(): void {
    if (this.settings.mailFetchMs > 0) this.loop.start();
  }

  wake(): void {
    this.loop.wake();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** The delay before the next try after `failures` failed rounds in a row. */
  retryDelayMs(failures: number): number {
    const base = Math.max(this.settings.mailFetchMs, 1000);
    return Math.min(base * 4 ** Math.max(0, failures - 1), this.settings.mailFetchRetryMaxMs);
  }

  /** Every due mailbox, one round each; a mailbox with more waiting is due again at once. */
  private async drain(): Promise<void> {
    while (!this.loop.isStopped) {
      const { rows } = await sql<{ id: number }>`
        update mailboxes set next_fetch_at = now() + ${interval(this.settings.mailFetchMs)}::interval
        where id = (
          select id from mailboxes where active and next_fetch_at <= now()
          order by next_fetch_at, id limit 1 for update skip locked)
        returning id`.execute(this.deps.db);
      if (!rows[0]) return;
      await this.fetchMailbox(Number(rows[0].id));
    }
  }

  /** One round of mailbox `id` now, whether due or not (tests, an operator's "fetch now"). */
  async fetchMailbox(id: number): Promise<FetchResult> {
    const box = await this.load(id);
    if (!box) return { outcomes: [], more: false };
    let read: Awaited<ReturnType<MailFetcher['read']>>;
    try {
      if (!box.passwordEncrypted) throw new Error('the mailbox has no password');
      const pass = await decryptPassword(this.deps.db, box.tenantId, box.passwordEncrypted);
      read = await this.read(box, pass);
    } catch (error) {
      // The mail server's errors (a refused connection too) make the mailbox fail; the database's do not.
      if (error instanceof DatabaseError || (!(error instanceof ImapFailure) && isDatabaseUnavailable(error)))
        throw error;
      await this.failed(box, error instanceof ImapFailure ? error.cause : error);
      return { outcomes: [], more: false };
    }
    const outcomes: Outcome[] = [];
    let upTo = read.uidValidity === box.uidValidity ? box.lastUid : 0;
    /** The first mail left for the next round, if one is. */
    let leftAt: number | undefined;
    for (const mail of read.mails) {
      let outcome: Outcome;
      try {
        outcome = await processMail(this.deps, box, mail.source, read.uidValidity, mail.uid);
      } catch (error) {
        // The database or the mail reader went away: this mail and the rest wait for the next round.
        if (isDatabaseUnavailable(error) || error instanceof ReaderUnavailable) {
          if (error instanceof ReaderUnavailable)
            this.deps.log.error({ err: error, mailbox: box.id }, 'mail fetcher: no mail reader');
          leftAt = mail.uid;
          break;
        }
        const message = error instanceof Error ? error.message : String(error);
        this.deps.log.warn(
          { err: error, mailbox: box.id, uid: mail.uid },
          'mail fetcher: a mail was not taken',
        );
        await this.deps.db
          .insertInto('mail_incoming')
          .values({
            tenant_id: box.tenantId,
            mailbox_id: box.id,
            message_key: `<failed.${read.uidValidity}.${mail.uid}@mailbox>`,
            uid: mail.uid,
            status: 'rejected',
            error: message.slice(0, 1000),
          })
          .onConflict((oc) => oc.columns(['mailbox_id', 'message_key']).doNothing())
          .execute();
        outcome = { kind: 'rejected', error: message };
      }
      outcomes.push(outcome);
      upTo = Math.max(upTo, mail.uid);
    }
    // The mails too large to fetch count as read up to the first mail left for later, not past it.
    for (const uid of read.skipped) if (leftAt === undefined || uid < leftAt) upTo = Math.max(upTo, uid);
    const more = read.more && leftAt === undefined;
    await this.deps.db
      .updateTable('mailboxes')
      .set({
        last_uid: sql`case when uid_validity is distinct from ${read.uidValidity} then ${upTo}
          else greatest(last_uid, ${upTo}) end`,
        uid_validity: read.uidValidity,
        last_fetched_at: sql`now()`,
        failures: 0,
        failing_since: null,
        last_error: null,
        ...(more ? { next_fetch_at: sql`now()` } : {}),
      })
      .where('id', '=', box.id)
      .execute();
    if (more) this.loop.wake();
    return { outcomes, more };
  }

  private async load(id: number): Promise<MailboxRow | undefined> {
    const row = await this.deps.db
      .selectFrom('mailboxes')
      .selectAll()
      .where('id', '=', id)
      .where('active', '=', true)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: Number(row.id),
      tenantId: Number(row.tenant_id),
      username: row.username,
      replyTo: row.reply_to,
      authservId: row.authserv_id ?? null,
      host: row.host,
      port: Number(row.port),
      tls: Boolean(row.tls),
      passwordEncrypted: row.password_encrypted,
      uidValidity: row.uid_validity,
      lastUid: Number(row.last_uid),
      failures: Number(row.failures),
    };
  }

  /**
   * The new mails' bytes; the connection is closed before any of them is processed. Whatever the mail
   * server does ends as an ImapFailure (a refused connection is not the database's ECONNREFUSED).
   */
  private async read(box: MailboxRow, pass: string) {
    try {
      return await this.readMails(box, pass);
    } catch (error) {
      if (error instanceof DatabaseError) throw error;
      throw new ImapFailure(error);
    }
  }

  private async readMails(box: MailboxRow, pass: string) {
    // ImapFlow is loaded by the first fetch, not at start-up: most services read no mailbox.
    const { ImapFlow } = await import('imapflow');
    const client = new ImapFlow({
      host: box.host,
      port: box.port,
      secure: box.tls,
      auth: { user: box.username, pass },
      logger: false,
      disableAutoIdle: true,
      connectionTimeout: 30_000,
      greetingTimeout: 15_000,
      socketTimeout: 120_000,
    });
    // A dropped connection or a broken answer arrives here as well as in the awaited call: never unhandled.
    let socketError: unknown;
    client.on('error', (error: unknown) => {
      socketError = error;
      this.deps.log.warn({ err: error, mailbox: box.id }, 'mail fetcher: connection error');
    });
    try {
      await client.connect();
      const lock = await client.getMailboxLock('INBOX');
      try {
        const opened = client.mailbox;
        if (!opened) throw new Error('INBOX could not be opened');
        const uidValidity = String(opened.uidValidity);
        const after = uidValidity === box.uidValidity ? box.lastUid : 0;
        const found: { uid: number; size: number }[] = [];
        if (opened.exists > 0) {
          for await (const m of client.fetch(`${after + 1}:*`, { uid: true, size: true }, { uid: true }))
            if (m.uid > after) found.push({ uid: m.uid, size: m.size ?? 0 });
        }
        found.sort((a, b) => a.uid - b.uid);
        // A mail larger than any attachment allowance three times over is never read (recorded as skipped).
        const limit = Math.max(this.settings.attachmentMaxBytes * 3, 1024 * 1024);
        const skipped = found.filter((m) => m.size > limit).map((m) => m.uid);
        const mails: { uid: number; source: Buffer }[] = [];
        let bytes = 0;
        let more = false;
        for (const m of found) {
          if (m.size > limit) continue;
          if (mails.length >= MAX_MAILS || (mails.length > 0 && bytes + m.size > MAX_BYTES)) {
            more = true;
            break;
          }
          const one = await client.fetchOne(String(m.uid), { uid: true, source: true }, { uid: true });
          if (one && one.source) {
            mails.push({ uid: m.uid, source: one.source });
            bytes += one.source.length;
          }
        }
        for (const uid of skipped) {
          if (more && uid > (mails.at(-1)?.uid ?? 0)) continue;
          await this.recordSkipped(box, uidValidity, uid, limit);
        }
        return {
          uidValidity,
          mails,
          more,
          skipped: more ? skipped.filter((u) => u <= (mails.at(-1)?.uid ?? 0)) : skipped,
        };
      } finally {
        lock.release();
      }
    } catch (error) {
      throw socketError && !(error instanceof Error) ? socketError : error;
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  private async recordSkipped(box: MailboxRow, uidValidity: string, uid: number, limit: number) {
    try {
      await this.deps.db
        .insertInto('mail_incoming')
        .values({
          tenant_id: box.tenantId,
          mailbox_id: box.id,
          message_key: `<too-large.${uidValidity}.${uid}@mailbox>`,
          uid,
          status: 'rejected',
          error: `The mail is larger than ${limit} bytes and was not fetched.`,
        })
        .onConflict((oc) => oc.columns(['mailbox_id', 'message_key']).doNothing())
        .execute();
    } catch (error) {
      throw new DatabaseError(error);
    }
  }

  private async failed(box: MailboxRow, error: unknown): Promise<void> {
    const failures = box.failures + 1;
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
    this.deps.log.warn({ mailbox: box.id, failures, error: message }, 'mail fetcher: mailbox failed');
    await this.deps.db
      .updateTable('mailboxes')
      .set({
        failures,
        failing_since: sql`coalesce(failing_since, now())`,
        last_error: message,
        next_fetch_at: sql`now() + ${interval(this.retryDelayMs(failures))}::interval`,
      })
      .where('id', '=', box.id)
      .execute();
  }
}
