/**
 * `GET /api/events` (issue 19, item 4): one server-sent events stream per signed-in user's tab,
 * carrying only what that user may read:
 *
 * - `record` `{resource: 'tickets', id, action: 'created' | 'changed'}`: a ticket the user may read (tenant, and for a client
 *   their companies: each event's record is read through the same scoped read as GET /api/tickets/{id});
 * - `message` `{resource: 'messages', id, morphable_type, morphable_id}`: a message the user may read (clients: on their own
 *   records, and never an internal note, by the messages' portal conditions); an internal note's or an
 *   internal field's change of a ticket tells a client's stream nothing at all (`ticket.changed.internal`);
 * - `notifications` `{unread}`: the user's own unread count (operators);
 * - `reset`: events were missed beyond what is kept; the screens reload everything.
 *
 * Every event has the id of its live_events row; a browser that reconnects sends the last one it saw
 * (`Last-Event-ID`) and what came after is replayed from the table before the live events go on, within
 * the bounds of replay.ts (else `reset`).
 * Authentication is the ordinary bearer token: the apps read the stream with fetch (they keep the
 * token in localStorage and send it as a header), so no token ever travels in a URL (docs/security.md).
 * The token is checked again at every heartbeat (a comment every LIVE_HEARTBEAT_MS that keeps proxies
 * from closing an idle stream) and at once when the instance hears that the user's sessions changed (the
 * auth cache's `onForget`: a logout or login here, or on another instance through PostgreSQL's
 * notifications): a logout, a replaced session, an expired token or an archived account ends the stream,
 * as does the server's shutdown (preClose: the drain never waits for open streams). A user holds at most
 * MAX_STREAMS_PER_USER streams on one instance, and starts at most REPLAYS_PER_WINDOW replays a minute
 * there; one more answers 429. A stream that closes aborts its work: no statement starts after that.
 */
import { AUDIT_SWEEP_EVERY_MS, sweepAuditLog } from '../audit/retention.ts';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import type { Registry } from '../schema/registry.ts';
import type { AuthContext, Tenant } from '../auth/context.ts';
import { forbidden, HttpError } from '../http/errors.ts';
import { bearerToken } from '../auth/authenticate.ts';
import { retryAfterSeconds } from '../auth/rate-limit.ts';
import { WakeLoop } from '../system/wake-loop.ts';
import { actionRoute } from '../docs/action-schema.ts';
import { checkDeadlines } from '../resources/notifications/deadlines.ts';
import { settleDeskDays } from '../reports/desk-days.ts';
import { recheckSlaClocks } from '../sla/recheck.ts';
import { sendServiceOverviews, SERVICE_OVERVIEW_EVERY_MS } from '../reports/service-overview-mail.ts';
import { sendBalanceAlerts } from '../reports/balance-alerts.ts';
import { setNotificationLinkOrigin } from '../resources/notifications/notify.ts';
import { unreadCount } from '../resources/notifications/store.ts';
import type { Config } from '../config.ts';
import { LiveBus } from './bus.ts';
import type { PgListener } from '../db/listener.ts';
import { pruneEvents, type LiveEvent } from './events.ts';
import { frameReader, frameText } from './frames.ts';
import { replay, ReplayAllowance, REPLAYS_PER_WINDOW } from './replay.ts';

export const MAX_STREAMS_PER_USER = 5;
const PRUNE_EVERY_MS = 60 * 60_000;

export interface LiveOptions {
  db: Db;
  registry: Registry;
  config: Config;
  /** PostgreSQL: the instance's LISTEN connection; absent on PGlite. */
  listener?: PgListener;
}

interface Stream {
  auth: AuthContext;
  tenant: Tenant;
  token: string;
  out: PassThrough;
  /** Sends happen one after another, in the order the events came. */
  chain: Promise<void>;
  closed: boolean;
  /** Aborted at close: the stream's replay and reads start no statement after that. */
  abort: AbortController;
  /** Ids sent by the replay: the same event heard live meanwhile is not sent twice. */
  replayed: Set<number>;
  timers: NodeJS.Timeout[];
}

declare module 'fastify' {
  interface FastifyInstance {
    liveBus: LiveBus;
  }
}

export async function livePlugin(app: FastifyInstance, { db, registry, config, listener }: LiveOptions) {
  setNotificationLinkOrigin(config.publicUrl);
  const reader = frameReader(db, registry);
  const replays = new ReplayAllowance();
  const bus = new LiveBus({ db, listener, log: app.log });
  app.decorate('liveBus', bus);
  const streams = new Set<Stream>();
  let lastPrune = 0;
  let lastOverviews = 0;
  let lastAuditSweep = 0;
  const deadlines = new WakeLoop(
    async () => {
      await checkDeadlines(db);
      await recheckSlaClocks(db, Date.now(), () => deadlines.isStopped);
      await settleDeskDays(db, () => deadlines.isStopped);
      if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = Date.now();
        await pruneEvents(db);
      }
      if (Date.now() - lastAuditSweep > AUDIT_SWEEP_EVERY_MS) {
        lastAuditSweep = Date.now();
        await sweepAuditLog(db);
      }
      await sendBalanceAlerts(db, Date.now(), {
        origin: config.publicUrl,
        stopping: () => deadlines.isStopped,
        failed: (error, contractId) =>
          app.log.error({ err: error, contractId }, 'balance alert: could not be told; tried again later'),
      });
      if (Date.now() - lastOverviews > SERVICE_OVERVIEW_EVERY_MS) {
        lastOverviews = Date.now();
        await sendServiceOverviews(db, Date.now(), {
          origin: config.publicUrl,
          stopping: () => deadlines.isStopped,
          failed: (error, userId) =>
            app.log.error(
              { err: error, userId },
              'service overview mail: could not be made; tried again later',
            ),
        });
      }
    },
    config.deadlineCheckMs,
    (error) => app.log.error({ err: error }, 'deadline and SLA check: lost its database'),
  );

  bus.subscribe((event) => {
    // A notification may have queued a mail (notify.ts writes it in its cause's transaction, where the
    // outbox cannot be reached): its sender looks now rather than at its next poll.
    if (event.kind === 'notifications') app.outbox.wake();
    for (const stream of streams) {
      if (stream.tenant.id !== event.tenantId || stream.closed) continue;
      stream.chain = stream.chain.then(() => deliver(stream, event));
    }
  });

  const write = (stream: Stream, text: string) => {
    if (!stream.closed) stream.out.write(text);
  };

  /** The stream's token again, after what it has to send: a session that ended ends the stream. */
  function recheck(stream: Stream, keepalive: boolean): void {
    stream.chain = stream.chain.then(async () => {
      if (stream.closed) return;
      try {
        stream.auth = {
          ...(await app.authenticator.fromAccessToken(stream.tenant, stream.token)),
          language: stream.auth.language,
        };
        if (keepalive) write(stream, ': keepalive\n\n');
      } catch {
        close(stream);
      }
    });
  }
  const stopHearing = app.authenticator.cache.onForget((tenantId, userId) => {
    for (const stream of streams)
      if (stream.tenant.id === tenantId && stream.auth.userId === userId) recheck(stream, false);
  });

  /** What a live `event` says to this stream's user, if anything: read with their own scope (frames.ts). */
  async function deliver(stream: Stream, event: LiveEvent): Promise<void> {
    if (stream.closed || stream.replayed.has(event.id)) return;
    try {
      const frames = await reader.framesFor(stream.auth, [event], stream.abort.signal);
      for (const frame of frames ?? []) write(stream, frameText(frame));
    } catch (error) {
      app.log.warn({ err: error, event: event.id }, 'live events: an event could not be read');
    }
  }

  function close(stream: Stream): void {
    if (stream.closed) return;
    stream.closed = true;
    stream.abort.abort();
    streams.delete(stream);
    for (const timer of stream.timers) clearTimeout(timer);
    stream.out.end();
  }

  app.addHook('onReady', async () => {
    await bus.start();
    if (config.deadlineCheckMs > 0) deadlines.start();
  });
  // Before the server stops taking requests and waits for those in flight: open streams would hold it.
  app.addHook('preClose', async () => {
    for (const stream of [...streams]) close(stream);
  });
  app.addHook('onClose', async () => {
    stopHearing();
    await deadlines.stop();
    await bus.stop();
  });

  app.get(
    '/api/events',
    actionRoute({
      tag: 'events',
      operationId: 'liveEvents',
      params: false,
      summary: 'The live events a signed-in user may see, as server-sent events',
      description:
        'A `text/event-stream` that stays open: `record` `{resource, id, action}` (a ticket the caller may ' +
        'read was created or changed), `message` `{resource, id, morphable_type, morphable_id}` (a message the caller may ' +
        'read was written), `notifications` `{unread}` (operators: their unread count), `reset` (events ' +
        'were missed: reload). Each event has an id; send the last one seen as the `Last-Event-ID` header ' +
        'on reconnecting and what came after is replayed. Heartbeat comments keep it open; it ends on ' +
        'logout, when the token expires and when the server stops. Operators and clients (bearer ' +
        `token); at most ${MAX_STREAMS_PER_USER} streams per user on one instance, and at most ` +
        `${REPLAYS_PER_WINDOW} reconnects with Last-Event-ID per user a minute (429 with Retry-After past ` +
        'either). A replay carries at most 100 events of the last 15 minutes; past that it is `reset`.',
      answers: {
        200: {
          description: 'The event stream.',
          content: { 'text/event-stream': { type: 'string' } },
        },
      },
      errors: [401, 403, 429, 503],
    }),
    async (request, reply) => {
      const auth = await request.getAuth();
      const token = bearerToken(request.headers.authorization);
      if (auth.kind === 'record-token' || auth.userId === null || !token) throw forbidden();
      const mine = [...streams].filter((s) => s.tenant.id === auth.tenantId && s.auth.userId === auth.userId);
      if (mine.length >= MAX_STREAMS_PER_USER)
        throw new HttpError(429, `At most ${MAX_STREAMS_PER_USER} event streams per user are open at once.`);
      const raw = request.headers['last-event-id'];
      const lastId = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
      if (lastId !== undefined) {
        const waitMs = replays.take(auth.tenantId, auth.userId);
        if (waitMs > 0) {
          reply.header('retry-after', retryAfterSeconds(waitMs));
          throw new HttpError(
            429,
            `At most ${REPLAYS_PER_WINDOW} event streams a minute may replay missed events; reconnect later.`,
          );
        }
      }

      const out = new PassThrough();
      // A write to a stream whose reader went away must not become an unhandled error.
      out.on('error', (error) => request.log.debug({ err: error }, 'live events: stream error'));
      const stream: Stream = {
        auth,
        tenant: request.tenant,
        token,
        out,
        chain: Promise.resolve(),
        closed: false,
        abort: new AbortController(),
        replayed: new Set(),
        timers: [],
      };
      streams.add(stream);
      reply.raw.on('close', () => close(stream));

      // The token's own end: the stream ends with it (the app refreshes the token and reconnects).
      const expiresAt = tokenExpiry(token);
      if (expiresAt !== undefined) {
        const timer = setTimeout(() => close(stream), Math.max(0, expiresAt - Date.now()));
        timer.unref();
        stream.timers.push(timer);
      }
      const heartbeat = setInterval(() => recheck(stream, true), config.liveHeartbeatMs);
      heartbeat.unref();
      stream.timers.push(heartbeat);

      write(stream, 'retry: 3000\n\n');
      const unread = auth.kind === 'operator' ? await unreadCount(db, auth.tenantId, auth.userId) : undefined;
      write(stream, `event: ready\ndata: ${JSON.stringify(unread === undefined ? {} : { unread })}\n\n`);
      if (lastId !== undefined) {
        stream.chain = stream.chain.then(() =>
          replay({
            db,
            reader,
            auth,
            lastId,
            signal: stream.abort.signal,
            send(frames, events) {
              if (frames === 'reset') return write(stream, 'event: reset\ndata: {}\n\n');
              for (const event of events) stream.replayed.add(event.id);
              for (const frame of frames) write(stream, frameText(frame));
            },
          }).catch((error: unknown) => app.log.warn({ err: error }, 'live events: the replay failed')),
        );
      }
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no');
      return reply.send(out);
    },
  );
}

/** The `exp` of a JWT (already verified by the authentication), in ms; undefined when absent. */
function tokenExpiry(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
