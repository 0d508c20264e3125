/**
 * The live events (issue 19, item 4): every change a screen should show without a reload is a row of
 * `live_events`, written in the change's own transaction (`recordEvent`), and announced with
 * `pg_notify`, which PostgreSQL delivers when (and only if) that transaction commits, to every instance
 * listening: across instances on PostgreSQL, in process on PGlite (which has LISTEN too). A row names a
 * record, never its content: each stream reads the record with its own user's scope (frames.ts).
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** The channel each instance LISTENs on; the payload is the event as `LiveEvent` JSON. */
export const LIVE_CHANNEL = 'live_events';

/**
 * `ticket.changed.internal`: a change of a ticket that only operators see (an internal note on it, a
 * field the portal does not show): a client's stream is not told of it at all, not even that the
 * ticket changed.
 */
export const LIVE_KINDS = [
  'ticket.created',
  'ticket.changed',
  'ticket.changed.internal',
  'message.created',
  'notifications',
] as const;
export type LiveKind = (typeof LIVE_KINDS)[number];

export interface LiveEvent {
  id: number;
  tenantId: number;
  kind: LiveKind;
  /** The ticket or message; none for `notifications`. */
  recordId: number | null;
  /** `notifications` only: whose count changed. */
  userId: number | null;
}

/**
 * Writes the event in the caller's transaction; announced to every instance once it commits. One
 * statement (the insert and its notify): a write's transaction holds PGlite's one connection, and every
 * other caller waits for it.
 */
export async function recordEvent(
  db: Db,
  event: Omit<LiveEvent, 'id' | 'recordId' | 'userId'> & { recordId?: number; userId?: number },
): Promise<void> {
  const tenantId = sql`${event.tenantId}::bigint`;
  const kind = sql`${event.kind}::text`;
  const recordId = sql`${event.recordId ?? null}::bigint`;
  const userId = sql`${event.userId ?? null}::bigint`;
  // The payload is the LiveEvent JSON (parseEvent reads it), with the id the insert gave.
  await sql`with e as (
      insert into live_events (tenant_id, kind, record_id, user_id)
      values (${tenantId}, ${kind}, ${recordId}, ${userId}) returning id)
    select pg_notify(${LIVE_CHANNEL}, json_build_object('id', e.id, 'tenantId', ${tenantId}, 'kind', ${kind},
      'recordId', ${recordId}, 'userId', ${userId})::text) from e`.execute(db);
}

/** A row of live_events as the bus reads it. */
export function eventOfRow(row: Record<string, unknown>): LiveEvent {
  return {
    id: Number(row.id),
    tenantId: Number(row.tenant_id),
    kind: row.kind as LiveKind,
    recordId: row.record_id === null ? null : Number(row.record_id),
    userId: row.user_id === null ? null : Number(row.user_id),
  };
}

/** The payload of a notification on LIVE_CHANNEL; undefined for anything malformed. */
export function parseEvent(payload: string | undefined): LiveEvent | undefined {
  try {
    const value = JSON.parse(payload ?? '') as Partial<LiveEvent>;
    if (!Number.isSafeInteger(value.id) || !Number.isSafeInteger(value.tenantId)) return undefined;
    if (!LIVE_KINDS.includes(value.kind as LiveKind)) return undefined;
    return {
      id: value.id!,
      tenantId: value.tenantId!,
      kind: value.kind!,
      recordId: typeof value.recordId === 'number' ? value.recordId : null,
      userId: typeof value.userId === 'number' ? value.userId : null,
    };
  } catch {
    return undefined;
  }
}

/** Events of `tenantId` after `afterId`, oldest first, at most `limit` (index live_events (tenant_id, id)). */
export async function eventsAfter(
  db: Db,
  tenantId: number,
  afterId: number,
  limit: number,
): Promise<LiveEvent[]> {
  const rows = await db
    .selectFrom('live_events')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(eventOfRow);
}

/** Events are kept this long for replays; older ones are removed by the periodic check. */
export const KEEP_EVENTS_MS = 24 * 60 * 60_000;

export async function pruneEvents(db: Db): Promise<void> {
  await db
    .deleteFrom('live_events')
    .where('created_at', '<', sql<Date>`now() - ${`${KEEP_EVENTS_MS} milliseconds`}::interval`)
    .execute();
}

/**
 * The first event a replay may start from (all tenants): the first one written within `maxAgeMs`, or,
 * when none was, the next id to come. A reconnect whose last seen id is before it missed events that are
 * too old to replay (or already pruned): it is told to reload instead. Two index lookups (created_at,
 * and the primary key), whatever the table holds.
 */
export async function replayFloor(db: Db, maxAgeMs: number): Promise<number> {
  const { rows } = await sql<{ id: string | number }>`select coalesce(
      (select id from live_events where created_at >= now() - ${`${maxAgeMs} milliseconds`}::interval
        order by created_at limit 1),
      (select coalesce(max(id), 0) + 1 from live_events)) as id`.execute(db);
  return Number(rows[0]!.id);
}
