/**
 * An operator's own notifications and mail choices: every statement here is scoped to the caller's
 * tenant and user id, so nobody reads or marks another's.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { recordEvent } from '../../live/events.ts';
import { MAILED_KINDS, type NotificationKind } from './kinds.ts';

export async function unreadCount(db: Db, tenantId: number, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select(sql<string>`count(*)`.as('n'))
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export interface NotificationRow {
  id: number;
  kind: NotificationKind;
  ticket_id: number | null;
  ticket_reference: string | null;
  ticket_description: string | null;
  message_id: number | null;
  actor_name: string | null;
  /** Its own words, where its kind has none fixed (a rule's notice, a disabled webhook's reason, a contract's balance). */
  text: string | null;
  read_at: string | null;
  created_at: string;
}

const iso = (value: unknown) =>
  value instanceof Date ? value.toISOString() : value === null ? null : String(value);

export async function listNotifications(
  db: Db,
  tenantId: number,
  userId: number,
  options: { page: number; perPage: number; unreadOnly: boolean },
): Promise<{ data: NotificationRow[]; total: number; unread: number }> {
  const base = db
    .selectFrom('notifications as n')
    .where('n.tenant_id', '=', tenantId)
    .where('n.user_id', '=', userId)
    .$if(options.unreadOnly, (q) => q.where('n.read_at', 'is', null));
  const rows = await base
    .leftJoin('tickets as t', (join) =>
      join.onRef('t.id', '=', 'n.ticket_id').on('t.tenant_id', '=', tenantId),
    )
    .leftJoin('users as a', (join) => join.onRef('a.id', '=', 'n.actor_id').on('a.tenant_id', '=', tenantId))
    .select([
      'n.id',
      'n.kind',
      'n.ticket_id',
      't.reference as ticket_reference',
      't.description as ticket_description',
      'n.message_id',
      'n.text',
      'a.full_name as actor_name',
      'n.read_at',
      'n.created_at',
    ])
    .orderBy('n.id', 'desc')
    .limit(options.perPage)
    .offset((options.page - 1) * options.perPage)
    .execute();
  const total = await base.select(sql<string>`count(*)`.as('n')).executeTakeFirst();
  return {
    data: rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind as NotificationKind,
      ticket_id: r.ticket_id === null ? null : Number(r.ticket_id),
      ticket_reference: r.ticket_reference ?? null,
      ticket_description: r.ticket_description ?? null,
      message_id: r.message_id === null ? null : Number(r.message_id),
      actor_name: r.actor_name ?? null,
      text: r.text ?? null,
      read_at: iso(r.read_at),
      created_at: iso(r.created_at)!,
    })),
    total: Number(total?.n ?? 0),
    unread: await unreadCount(db, tenantId, userId),
  };
}

/** Marks the caller's notification `id` read (or all of them): false when it is not theirs. */
export async function markRead(
  db: Db,
  tenantId: number,
  userId: number,
  id: number | 'all',
): Promise<{ found: boolean; unread: number }> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('notifications')
      .set({ read_at: sql`coalesce(read_at, now())` })
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .$if(id !== 'all', (q) => q.where('id', '=', id as number))
      .$if(id === 'all', (q) => q.where('read_at', 'is', null))
      .executeTakeFirst();
    const found = id === 'all' || Number(result.numUpdatedRows) > 0;
    // The user's other tabs and devices show the new count.
    if (found) await recordEvent(trx, { tenantId, kind: 'notifications', userId });
    return { found, unread: await unreadCount(trx, tenantId, userId) };
  });
}

export interface Preference {
  kind: NotificationKind;
  email: boolean;
}

export async function preferences(db: Db, tenantId: number, userId: number): Promise<Preference[]> {
  const rows = await db
    .selectFrom('notification_preferences')
    .select(['kind', 'email'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .execute();
  const chosen = new Map(rows.map((r) => [String(r.kind), Boolean(r.email)]));
  return MAILED_KINDS.map((kind) => ({ kind, email: chosen.get(kind) ?? false }));
}

export async function choose(
  db: Db,
  tenantId: number,
  userId: number,
  choices: Preference[],
): Promise<Preference[]> {
  await db.transaction().execute(async (trx) => {
    for (const { kind, email } of choices) {
      await trx
        .insertInto('notification_preferences')
        .values({ tenant_id: tenantId, user_id: userId, kind, email })
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'user_id', 'kind']).doUpdateSet({ email, updated_at: sql`now()` }),
        )
        .execute();
    }
  });
  return preferences(db, tenantId, userId);
}
