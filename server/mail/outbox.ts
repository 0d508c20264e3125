/**
 * The mail outbox (issue 15, item 4): every outgoing mail is a row of `mail_outbox`, written in the
 * same transaction as what caused it (`enqueueMail`, enqueue.ts), and sent by whichever instance claims it.
 *
 * Each instance runs one sender (`MailOutbox`): it claims one due row at a time with
 * `FOR UPDATE SKIP LOCKED` under a lease, sends it through the mailer (SMTP, or `.eml` files without
 * SMTP_URL), and marks it sent. A refused or failed send is tried again after a growing delay
 * (MAIL_RETRY_BASE_MS × 4ⁿ, at most MAIL_RETRY_MAX_MS) until MAIL_MAX_ATTEMPTS, then the row is given
 * up (`failed`). A row whose lease ran out (its instance died mid-send) is claimed again. The sender
 * looks at once when this instance queues a mail (`wake`), when a retry it set falls due, and every
 * MAIL_POLL_MS for rows queued by other instances and leases that ran out.
 *
 * Every row belongs to a tenant: its operators see the mail not sent (schemas/mail-outbox.json) and may
 * queue a given-up mail again (`requeue`). A given-up row therefore keeps its body (the link in it may
 * still work) for MAIL_KEEP_GIVEN_UP_DAYS, then drops it (`forgetOldBodies`), as a sent row does at once:
 * a reset or quote link must not lie in the database longer than it could serve anyone.
 *
 * A resource can hear how its mails end (`handle`): the messages record their recipients when sent and
 * their `mail_error` when given up, in the same transaction that marks the row.
 *
 * Sent exactly once as far as the database can tell: a send that succeeded but whose "sent" mark was
 * lost (the database went away at that moment) is sent again after the lease; SMTP has no way to ask.
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db, DbTransaction } from '../db/database.ts';
import type { Config } from '../config.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { FileStore } from '../files/store.ts';
import type { MailAttachment, MailMessage, Mailer } from './mailer.ts';
import { WakeLoop } from '../system/wake-loop.ts';
import { enqueueMail, type OutboxAbout, type OutboxMail } from './enqueue.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
export interface OutboxRow {
  id: number;
  tenantId: number;
  sourceId: number | null;
  context: unknown;
  attempts: number;
}

/** How a resource hears the end of its mails; each runs in the transaction that marks the row. */
export interface OutboxHandlers {
  sent?(trx: DbTransaction, row: OutboxRow): Promise<void>;
  failed?(trx: DbTransaction, row: OutboxRow, error: string): Promise<void>;
  /** An operator queued the mail again (`requeue`): it is no longer given up. */
  requeued?(trx: DbTransaction, row: OutboxRow): Promise<void>;
}

/** Why a mail cannot be queued again: it is being sent right now, or its body was not kept. */
export class RequeueRefused extends Error {
  constructor(readonly reason: 'sending' | 'no-body') {
    super(reason);
  }
}

export type OutboxSettings = Pick<
  Config,
  | 'mailPollMs'
  | 'mailLeaseMs'
  | 'mailRetryBaseMs'
  | 'mailRetryMaxMs'
  | 'mailMaxAttempts'
  | 'mailKeepGivenUpDays'
>;

/** How often each instance looks for given-up bodies to drop: their age is counted in days. */
const FORGET_EVERY_MS = 60 * 60_000;

/** What one attempt came to: sent, to be tried again, given up, or not ours (another sender has it). */
export type SendOutcome = 'sent' | 'retrying' | 'failed' | 'elsewhere';

const json = (value: unknown) =>
  typeof value === 'string'
    ? JSON.parse(value)
    : value; /** The delay before attempt `attempts + 1`, after `attempts` failed ones. */
export function retryDelayMs(settings: OutboxSettings, attempts: number): number {
  return Math.min(settings.mailRetryBaseMs * 4 ** Math.max(0, attempts - 1), settings.mailRetryMaxMs);
}

const interval = (ms: number) => `${Math.max(1, Math.ceil(ms))} milliseconds`;

export class MailOutbox {
  private readonly handlers = new Map<string, OutboxHandlers>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly loop: WakeLoop;
  private lastForget = 0;

  constructor(
    private readonly deps: { db: Db; mailer: Mailer; store: FileStore; log: Log },
    private readonly settings: OutboxSettings,
  ) {
    this.loop = new WakeLoop(
      () => this.drain(),
      settings.mailPollMs,
      (error) => deps.log.error({ err: error }, 'mail outbox: lost its database'),
    );
  }

  /** `source`'s mails report to these handlers. */
  handle(source: string, handlers: OutboxHandlers): void {
    this.handlers.set(source, handlers);
  }

  /** Queues a mail outside any transaction (nothing else is written with it) and wakes the sender. */
  async queue(mail: OutboxMail, about: OutboxAbout): Promise<number> {
    const id = await enqueueMail(this.deps.db, mail, about);
    this.wake();
    return id;
  }

  /**
   * An operator's "try again": the tenant's row `id`, queued or given up, is due now with its attempts
   * counted from zero; its resource hears it (a message no longer shows its mail as given up). False
   * when the tenant has no such row not yet sent; RequeueRefused while a sender holds it, or when a
   * given-up row kept no body (given up before bodies were kept).
   */
  async requeue(tenantId: number, id: number): Promise<boolean> {
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('mail_outbox')
        .select(['id', 'status', 'source', 'source_id', 'context', 'locked_until'])
        .select(sql<boolean>`mail is null`.as('no_body'))
        .select(sql<boolean>`coalesce(locked_until > now(), false)`.as('held'))
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .where('status', '<>', 'sent')
        .forUpdate()
        .executeTakeFirst();
      if (!row) return false;
      if (row.status === 'sending' && row.held) throw new RequeueRefused('sending');
      if (row.no_body) throw new RequeueRefused('no-body');
      await trx
        .updateTable('mail_outbox')
        .set({
          status: 'queued',
          attempts: 0,
          next_attempt_at: sql`now()`,
          locked_until: null,
          failed_at: null,
        })
        .where('id', '=', id)
        .execute();
      const handlers = (row.source && this.handlers.get(row.source)) || {};
      await handlers.requeued?.(trx, {
        id,
        tenantId,
        sourceId: row.source_id === null ? null : Number(row.source_id),
        context: json(row.context),
        attempts: 0,
      });
      return true;
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Look for due mail now (one was just queued). */
  wake(): void {
    this.loop.wake();
  }

  /** No new send starts; the ones under way finish (a mail is never cut in half). */
  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight]);
    this.deps.mailer.close();
  }

  /**
   * One attempt at the row `id` now, in the caller's request (the caller wants to say whether the mail
   * went): 'elsewhere' when it is not due or another sender holds it. A failure is retried as any.
   */
  async sendNow(id: number): Promise<SendOutcome> {
    if (this.loop.isStopped) return 'elsewhere';
    const work = this.claim(id).then((row) => (row ? this.attempt(row) : ('elsewhere' as const)));
    this.inFlight.add(work);
    try {
      return await work;
    } finally {
      this.inFlight.delete(work);
    }
  }

  /**
   * Drops the bodies of mails given up more than MAIL_KEEP_GIVEN_UP_DAYS ago (their links with them); such
   * a mail can no longer be tried again (`requeue` refuses it). Returns how many were dropped.
   */
  async forgetOldBodies(): Promise<number> {
    const result = await this.deps.db
      .updateTable('mail_outbox')
      .set({ mail: null })
      .where('status', '=', 'failed')
      .where('mail', 'is not', null)
      .where('failed_at', '<', sql<Date>`now() - ${`${this.settings.mailKeepGivenUpDays} days`}::interval`)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Sends due rows until none is left; once an hour, first drops old given-up bodies. */
  private async drain(): Promise<void> {
    if (Date.now() - this.lastForget >= FORGET_EVERY_MS) {
      this.lastForget = Date.now();
      const dropped = await this.forgetOldBodies();
      if (dropped) this.deps.log.info({ dropped }, 'mail outbox: dropped the bodies of old given-up mail');
    }
    while (!this.loop.isStopped) {
      const row = await this.claim();
      if (!row) return;
      await this.attempt(row);
    }
  }

  /** Leases the oldest due row (or row `id`, if due) to this sender. */
  private async claim(id?: number): Promise<Record<string, any> | undefined> {
    const { rows } = await sql<Record<string, any>>`
      update mail_outbox set
        status = 'sending',
        attempts = attempts + 1,
        last_attempt_at = now(),
        locked_until = now() + ${interval(this.settings.mailLeaseMs)}::interval
      where id = (
        select id from mail_outbox
        where ((status = 'queued' and next_attempt_at <= now())
            or (status = 'sending' and locked_until < now()))
          ${id === undefined ? sql`` : sql`and id = ${id}`}
        order by next_attempt_at, id
        limit 1
        for update skip locked
      )
      returning *`.execute(this.deps.db);
    return rows[0];
  }

  private async attempt(claimed: Record<string, any>): Promise<SendOutcome> {
    const { db, mailer, log } = this.deps;
    const row: OutboxRow = {
      id: Number(claimed.id),
      tenantId: Number(claimed.tenant_id),
      sourceId: claimed.source_id === null ? null : Number(claimed.source_id),
      context: json(claimed.context),
      attempts: Number(claimed.attempts),
    };
    const handlers: OutboxHandlers = (claimed.source && this.handlers.get(claimed.source)) || {};
    const ours = (q: any) =>
      q.where('id', '=', row.id).where('status', '=', 'sending').where('attempts', '=', row.attempts);

    let failure: string | undefined;
    try {
      await mailer.send(await this.message(json(claimed.mail) as OutboxMail | null));
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
      log.warn({ err: error, outbox: row.id, attempts: row.attempts }, 'mail outbox: sending failed');
    }

    if (failure === undefined) {
      const sent = { status: 'sent', sent_at: sql`now()`, locked_until: null, last_error: null, mail: null };
      try {
        await db.transaction().execute(async (trx) => {
          const marked = await ours(trx.updateTable('mail_outbox')).set(sent).executeTakeFirst();
          if (Number(marked.numUpdatedRows) > 0) await handlers.sent?.(trx, row);
        });
      } catch (error) {
        if (isDatabaseUnavailable(error)) throw error;
        // The mail went: a handler that fails must not leave the row to be sent again after its lease.
        log.error({ err: error, outbox: row.id }, 'mail outbox: recording a sent mail failed');
        await ours(db.updateTable('mail_outbox')).set(sent).execute();
      }
      return 'sent';
    }

    const error = failure.slice(0, 500);
    if (row.attempts >= this.settings.mailMaxAttempts) {
      await db.transaction().execute(async (trx) => {
        const marked = await ours(trx.updateTable('mail_outbox'))
          // The body stays: an operator may queue the mail again (`requeue`).
          .set({ status: 'failed', failed_at: sql`now()`, locked_until: null, last_error: error })
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) > 0) await handlers.failed?.(trx, row, error);
      });
      log.error({ outbox: row.id, attempts: row.attempts }, 'mail outbox: mail given up');
      return 'failed';
    }
    const delay = retryDelayMs(this.settings, row.attempts);
    await ours(db.updateTable('mail_outbox'))
      .set({
        status: 'queued',
        locked_until: null,
        last_error: error,
        next_attempt_at: sql`now() + ${interval(delay)}::interval`,
      })
      .execute();
    // This sender tries it again when it falls due, not at the next poll (MAIL_POLL_MS may be longer).
    this.loop.wakeIn(delay);
    return 'retrying';
  }

  /** The stored mail with its attachments' bytes read from the file store. */
  private async message(mail: OutboxMail | null): Promise<MailMessage> {
    if (!mail) throw new Error('outbox: the row holds no mail');
    const attachments: MailAttachment[] = [];
    for (const a of mail.attachments ?? []) {
      const content = await this.deps.store.read(a.key);
      if (!content) throw new Error(`attachment ${a.filename}: its file is missing from the store`);
      attachments.push({
        filename: a.filename,
        contentType: a.contentType,
        content,
        ...(a.cid ? { cid: a.cid } : {}),
      });
    }
    return { ...mail, attachments };
  }
}
