/**
 * What live events say to one stream's user: each event read with that user's own scope, as
 * GET /api/<resource>/{id} would read its record (the tenant, the portal's fixed conditions and company
 * scope: baseConditions). An event whose record the user may not read says nothing to them.
 *
 * Events come in batches (a replay's, or one live event): a batch costs one scoped statement per kind
 * of record in it and one for the unread count, however many events it holds, so a replay reads as
 * much as one list page does. Before each statement the stream's signal is checked: a stream that
 * closed starts no further statement.
 */
import { sql } from 'kysely';
import type { AuthContext } from '../auth/context.ts';
import { may } from '../auth/may.ts';
import type { Db } from '../db/database.ts';
import { isPortalCaller } from '../query/visibility.ts';
import { baseConditions, sqlContext } from '../query/sql.ts';
import { and, ref, tableAs } from '../query/fragments.ts';
import type { Registry } from '../schema/registry.ts';
import type { Resource } from '../../common/schema/types.ts';
import { unreadCount } from '../resources/notifications/store.ts';
import type { LiveEvent } from './events.ts';

/** One server-sent event: `id`, `event` and its JSON `data`. */
export interface Frame {
  id: number;
  event: string;
  data: unknown;
}

export function frameText(frame: Frame): string {
  return `id: ${frame.id}\nevent: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`;
}

export interface FrameReader {
  /** The frames `events` make for `auth`, in the events' order; undefined when `signal` aborted meanwhile. */
  framesFor(auth: AuthContext, events: LiveEvent[], signal?: AbortSignal): Promise<Frame[] | undefined>;
}

const TICKET_KINDS = new Set(['ticket.created', 'ticket.changed', 'ticket.changed.internal']);

export function frameReader(db: Db, registry: Registry): FrameReader {
  const tickets = registry.require('tickets');
  const messages = registry.require('messages');

  /** The rows among `ids` that `auth` may read, with `columns`: one statement. */
  async function readable(auth: AuthContext, resource: Resource, ids: number[], columns: string[]) {
    const ctx = sqlContext(registry, auth);
    const alias = ctx.nextAlias();
    const where = and([
      sql`${ref(alias, 'id')} in (${sql.join([...new Set(ids)])})`,
      ...baseConditions(ctx, resource, alias),
    ]);
    const select = sql.join(columns.map((c) => sql`${ref(alias, c)} as ${sql.id(c)}`));
    const { rows } = await sql<Record<string, unknown>>`select ${select} from ${tableAs(resource, alias)}
      where ${where}`.execute(db);
    return new Map(rows.map((row) => [Number(row.id), row]));
  }

  return {
    async framesFor(auth, events, signal) {
      const stopped = () => signal?.aborted === true;
      // The portal never hears of a change only operators see.
      const ticketEvents = new Set(
        events.filter(
          (e) =>
            TICKET_KINDS.has(e.kind) &&
            e.recordId !== null &&
            !(e.kind === 'ticket.changed.internal' && isPortalCaller(auth)),
        ),
      );
      const messageEvents = events.filter((e) => e.kind === 'message.created' && e.recordId !== null);
      const mine = events.filter(
        (e) => e.kind === 'notifications' && e.userId === auth.userId && auth.kind === 'operator',
      );

      let ticketRows = new Map<number, Record<string, unknown>>();
      if (ticketEvents.size && may(auth, tickets, 'index')) {
        if (stopped()) return undefined;
        ticketRows = await readable(
          auth,
          tickets,
          [...ticketEvents].map((e) => e.recordId!),
          ['id'],
        );
      }
      let messageRows = new Map<number, Record<string, unknown>>();
      if (messageEvents.length && may(auth, messages, 'index')) {
        if (stopped()) return undefined;
        messageRows = await readable(
          auth,
          messages,
          messageEvents.map((e) => e.recordId!),
          ['id', 'morphable_type', 'morphable_id'],
        );
      }
      let unread: number | undefined;
      if (mine.length && auth.userId !== null) {
        if (stopped()) return undefined;
        unread = await unreadCount(db, auth.tenantId, auth.userId);
      }
      if (stopped()) return undefined;

      const frames: Frame[] = [];
      // The count is the one of now: said once, at the last of this batch's notification events.
      const lastNotification = mine.at(-1);
      for (const event of events) {
        if (event === lastNotification && unread !== undefined) {
          frames.push({ id: event.id, event: 'notifications', data: { unread } });
          continue;
        }
        const id = event.recordId;
        if (id === null) continue;
        if (event.kind === 'message.created') {
          const row = messageRows.get(id);
          if (row)
            frames.push({
              id: event.id,
              event: 'message',
              data: {
                resource: messages.name,
                id,
                morphable_type: row.morphable_type,
                morphable_id: Number(row.morphable_id),
              },
            });
        } else if (ticketEvents.has(event) && ticketRows.has(id)) {
          const action = event.kind === 'ticket.created' ? 'created' : 'changed';
          frames.push({ id: event.id, event: 'record', data: { resource: tickets.name, id, action } });
        }
      }
      return frames;
    },
  };
}
