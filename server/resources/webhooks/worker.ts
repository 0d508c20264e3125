/**
 * The webhook deliverer (issue 38, item 4): each instance runs one, as it runs one mail sender
 * (server/mail/outbox.ts), and the two work alike. It claims one due delivery at a time with
 * `FOR UPDATE SKIP LOCKED` under a lease (`locked_until`), so two instances never send one row at the
 * same moment; a row whose instance died mid-send is claimed again once its lease ran out.
 *
 * An attempt resolves the target and checks its addresses (targets.ts), signs the payload with the
 * webhook's secret (signing.ts) and POSTs it (post.ts). A 2xx delivers it and sets the webhook's
 * consecutive failures to 0. A failure is logged on the row (status code, duration, a short error);
 * a retryable one (5xx, 408, 429, timeout, connection) is tried again after WEBHOOK_RETRY_BASE_MS × 4ⁿ (at
 * most WEBHOOK_RETRY_MAX_MS) until WEBHOOK_MAX_ATTEMPTS, anything else is given up at once. Every failed
 * attempt counts against the webhook: at WEBHOOK_MAX_FAILURES in a row it is disabled and second-line
 * operators are told (disable.ts); its queued rows wait until it is enabled again. Once an hour the
 * loop also drops finished deliveries older than WEBHOOK_KEEP_DAYS (prune.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { decryptPassword } from '../../mail/inbound/secret.ts';
import { WakeLoop } from '../../system/wake-loop.ts';
import { WEBHOOK_TEST_EVENT } from '../../../common/webhook-events.ts';
import { disableWebhook } from './disable.ts';
import { payloadOf } from './enqueue.ts';
import { postTo, type PostOutcome } from './post.ts';
import { pruneDeliveries } from './prune.ts';
import type { WebhookSettings } from './settings.ts';
import { signedHeaders } from './signing.ts';
import { resolveTarget, TargetRefused } from './targets.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

interface Claimed {
  id: number;
  tenantId: number;
  webhookId: number;
  eventId: string;
  event: string;
  payload: string;
  attempts: number;
}

export type AttemptResult = 'delivered' | 'retrying' | 'failed' | 'elsewhere';

const PRUNE_EVERY_MS = 60 * 60_000;

const interval = (ms: number) => `${Math.max(1, Math.ceil(ms))} milliseconds`;

export function retryDelayMs(settings: WebhookSettings, attempts: number): number {
  return Math.min(settings.retryBaseMs * 4 ** Math.max(0, attempts - 1), settings.retryMaxMs);
}

export class WebhookWorker {
  private readonly loop: WakeLoop;
  private readonly inFlight = new Set<Promise<unknown>>();
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly settings: WebhookSettings,
    private readonly log: Log,
  ) {
    this.loop = new WakeLoop(
      () => this.drain(),
      settings.pollMs,
      (error) => log.error({ err: error }, 'webhooks: lost the database'),
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Rows were queued in a transaction about to commit: look shortly. */
  soon(): void {
    this.loop.wakeIn(100);
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * The "send test event" action: a `ping` delivery for the webhook, active or not, claimed by this
   * instance as it is written (no other worker can take it first), and tried at once. Returns its id;
   * a failure is retried as any delivery.
   */
  async ping(tenantId: number, webhookId: number): Promise<number> {
    const { id: eventId, body } = payloadOf(WEBHOOK_TEST_EVENT, tenantId, { webhook_id: webhookId });
    const row = await this.db
      .insertInto('webhook_deliveries')
      .values({
        tenant_id: tenantId,
        webhook_id: webhookId,
        event_id: eventId,
        event: WEBHOOK_TEST_EVENT,
        payload: body,
        status: 'sending',
        attempts: 1,
        locked_until: sql`now() + ${interval(this.settings.leaseMs)}::interval`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const claimed: Claimed = {
      id: Number(row.id),
      tenantId,
      webhookId,
      eventId,
      event: WEBHOOK_TEST_EVENT,
      payload: body,
      attempts: 1,
    };
    const work = this.attempt(claimed);
    this.inFlight.add(work);
    try {
      await work;
    } finally {
      this.inFlight.delete(work);
    }
    return claimed.id;
  }

  private async drain(): Promise<void> {
    if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      await pruneDeliveries(this.db, this.settings.keepDays);
    }
    while (!this.loop.isStopped) {
      const row = await this.claim();
      if (!row) return;
      const work = this.attempt(row);
      this.inFlight.add(work);
      try {
        await work;
      } finally {
        this.inFlight.delete(work);
      }
    }
  }

  /** Leases the oldest due row of an enabled webhook to this instance. */
  private async claim(): Promise<Claimed | undefined> {
    const { rows } = await sql<Record<string, unknown>>`
      update webhook_deliveries set
        status = 'sending',
        attempts = attempts + 1,
        locked_until = now() + ${interval(this.settings.leaseMs)}::interval
      where id = (
        select d.id from webhook_deliveries d
        join webhooks w on w.id = d.webhook_id
        where ((d.status = 'queued' and d.next_attempt_at <= now())
            or (d.status = 'sending' and d.locked_until < now()))
          and w.active and w.disabled_at is null
        order by d.next_attempt_at, d.id
        limit 1
        for update of d skip locked
      )
      returning id, tenant_id, webhook_id, event_id, event, payload, attempts`.execute(this.db);
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: Number(row.id),
      tenantId: Number(row.tenant_id),
      webhookId: Number(row.webhook_id),
      eventId: String(row.event_id),
      event: String(row.event),
      payload: String(row.payload),
      attempts: Number(row.attempts),
    };
  }

  private async attempt(row: Claimed): Promise<AttemptResult> {
    const outcome = await this.send(row);
    // Only the claim this attempt made is marked: a row claimed again after a lost lease is not ours.
    const ours = (trx: Db) =>
      trx
        .updateTable('webhook_deliveries')
        .where('id', '=', row.id)
        .where('status', '=', 'sending')
        .where('attempts', '=', row.attempts);
    const logged = { status_code: outcome.statusCode, duration_ms: outcome.durationMs, locked_until: null };
    if (outcome.error === undefined) {
      await this.db.transaction().execute(async (trx) => {
        const marked = await ours(trx)
          .set({ ...logged, status: 'delivered', delivered_at: sql`now()`, error: null })
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) > 0)
          await trx.updateTable('webhooks').set({ failures: 0 }).where('id', '=', row.webhookId).execute();
      });
      return 'delivered';
    }
    const retry = outcome.retryable && row.attempts < this.settings.maxAttempts;
    const delay = retryDelayMs(this.settings, row.attempts);
    const result = await this.db.transaction().execute(async (trx) => {
      const marked = await ours(trx)
        .set({
          ...logged,
          error: outcome.error!.slice(0, 300),
          status: retry ? 'queued' : 'failed',
          next_attempt_at: retry ? sql`now() + ${interval(delay)}::interval` : sql`now()`,
        })
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) return 'elsewhere' as const;
      const webhook = await trx
        .updateTable('webhooks')
        .set({ failures: sql`failures + 1` })
        .where('id', '=', row.webhookId)
        .returning(['failures', 'disabled_at'])
        .executeTakeFirst();
      if (webhook && webhook.disabled_at === null && Number(webhook.failures) >= this.settings.maxFailures)
        await disableWebhook(trx, row.tenantId, row.webhookId, Number(webhook.failures), outcome.error!);
      return retry ? ('retrying' as const) : ('failed' as const);
    });
    this.log.warn(
      { webhook: row.webhookId, delivery: row.id, attempts: row.attempts, status: outcome.statusCode },
      'webhooks: a delivery failed',
    );
    if (result === 'retrying') this.loop.wakeIn(delay);
    return result;
  }

  /** The attempt itself: the webhook's secret and target, signed, posted. */
  private async send(row: Claimed): Promise<PostOutcome> {
    const started = performance.now();
    const failed = (error: string): PostOutcome => ({
      statusCode: null,
      durationMs: Math.round(performance.now() - started),
      error,
      retryable: false,
    });
    const webhook = await this.db
      .selectFrom('webhooks')
      .select(['url', 'secret_encrypted'])
      .where('id', '=', row.webhookId)
      .executeTakeFirst();
    if (!webhook) return failed('The webhook no longer exists.');
    let secret: string;
    try {
      secret = await decryptPassword(this.db, row.tenantId, webhook.secret_encrypted);
    } catch {
      return failed('The signing secret cannot be read: rotate it.');
    }
    try {
      const target = await resolveTarget(webhook.url, this.settings.allowPrivate);
      const headers = signedHeaders(secret, row.payload, { id: row.eventId, type: row.event });
      return await postTo(target, headers, row.payload, this.settings.timeoutMs);
    } catch (error) {
      if (error instanceof TargetRefused) return failed(error.message);
      throw error;
    }
  }
}
