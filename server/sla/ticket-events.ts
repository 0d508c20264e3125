/**
 * A ticket's recorded history as the SLA clock's events (common/sla/clock-history.ts): what counts is
 * read from what the desk already records, so any change of SLA, calendar or status can be measured
 * again exactly (issue 35, item 3).
 *
 * - created: the ticket's creation, with the status, priority and SLA it had then (the first recorded
 *   change of a field says what it was before; without one, it never changed).
 * - status, priority and SLA changes, and merges: the ticket's own history (ticket_changes, written by every
 *   path that changes a ticket, server/resources/tickets/history.ts). A status of the internal type
 *   closed solves the ticket, archived closes it, and leaving either for another reopens it.
 * - a public operator reply: a normal message on the ticket, not from the client, that the client sees
 *   (visible_to_client) or that was mailed to them (send_to_client);
 * - a client reply: a message from the client, unless it is a held mail (its sender unverified or
 *   rejected: nobody knows it was the client, server/mail/inbound).
 *
 * The SLA an event carries is the ticket's own; none (null) means the SLA that applies otherwise
 * (its company's contract's, its company's, the tenant's), which the caller resolves as FALLBACK_SLA.
 */
import type { ClockEvent, SlaId } from '../../common/sla/clock.ts';
import { sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Db, DbTransaction } from '../db/database.ts';
import { MERGED } from '../resources/tickets/history.ts';
import { appliedFrom, appliedSlaColumns, NO_PRIORITY, type AppliedSlas } from './policy.ts';

/** The clock's SLA of a ticket that names none of its own: the one its company or tenant gives it. */
export const FALLBACK_SLA = 'fallback';

/** ticket_statuses.internal_type values (schemas/_enums.json ticketStatusTypes). */
const CLOSED = 2;
const ARCHIVED = 3;

type Reader = Db | DbTransaction;

const at = (value: unknown) => new Date(value as string | Date).getTime();
const sla = (value: string | number | null): SlaId =>
  value === null || value === '' ? FALLBACK_SLA : Number(value);
const priority = (value: string | number | null) => (value === null ? NO_PRIORITY : String(value));

/**
 * A merge moves the merged tickets' messages and history to the kept ticket (server/resources/merge.ts)
 * and marks where each came from (`merged_from`, ./merged-rows.ts): a ticket's own rows are those on
 * it that came from no other, and those that came from it wherever they are now.
 */
function ownRows(column: 'ticket_id' | 'morphable_id', ticketId: number) {
  return sql<boolean>`((${sql.ref(column)} = ${ticketId} and merged_from is null) or merged_from = ${ticketId})`;
}

/**
 * The events of one ticket of the tenant in recorded order, and the SLA that applies to it now and its
 * fallback (./policy.ts); null when it is not the tenant's or is a template. One statement: the ticket
 * with its changes, messages and the tenant's statuses as JSON arrays (a recompute runs on every reply
 * and status move, and each round trip was most of its time).
 */
export async function ticketHistory(
  db: Reader,
  tenantId: number,
  ticketId: number,
  today: string,
): Promise<({ events: ClockEvent[] } & AppliedSlas) | null> {
  const ticket = await db
    .selectFrom('tickets as t')
    .leftJoin('companies as c', (join) =>
      join.onRef('c.id', '=', 't.company_id').on('c.tenant_id', '=', tenantId),
    )
    .select(['t.created_at', 't.status_id', 't.priority_id', 't.sla_id'])
    .select((eb) => [
      ...appliedSlaColumns(eb, tenantId, today),
      jsonArrayFrom(
        eb
          .selectFrom('ticket_changes')
          .select(['id', 'field', 'from_value', 'to_value', 'created_at'])
          .where('tenant_id', '=', tenantId)
          .where(ownRows('ticket_id', ticketId))
          .where('field', 'in', ['status_id', 'priority_id', 'sla_id', MERGED]),
      ).as('changes'),
      jsonArrayFrom(
        eb
          .selectFrom('messages')
          .select([
            'id',
            'created_at',
            'is_from_client',
            'visible_to_client',
            'send_to_client',
            'sender_check',
          ])
          .where('tenant_id', '=', tenantId)
          .where('morphable_type', '=', 'ticket')
          .where(ownRows('morphable_id', ticketId))
          .where('type', '=', 'normal'),
      ).as('messages'),
      jsonArrayFrom(
        eb.selectFrom('ticket_statuses').select(['id', 'internal_type']).where('tenant_id', '=', tenantId),
      ).as('statuses'),
    ])
    .where('t.tenant_id', '=', tenantId)
    .where('t.id', '=', ticketId)
    .where('t.is_template', '=', false)
    .executeTakeFirst();
  if (!ticket) return null;
  // An aggregate's order is not promised: the recorded order is the rows' ids.
  const changes = [...ticket.changes].sort((a, b) => Number(a.id) - Number(b.id));
  const messages = [...ticket.messages].sort((a, b) => Number(a.id) - Number(b.id));
  const statuses = ticket.statuses;
  const kind = new Map(statuses.map((s) => [String(s.id), s.internal_type]));
  const done = (status: string | null) => {
    const type = status === null ? undefined : kind.get(status);
    return type === CLOSED || type === ARCHIVED;
  };
  const first = (field: string) => changes.find((c) => c.field === field);
  const initial = (field: string, current: number | null) => {
    const change = first(field);
    return change ? change.from_value : current === null ? null : String(current);
  };

  const startStatus = initial('status_id', ticket.status_id) ?? String(ticket.status_id);
  const timeline: { at: number; event: ClockEvent }[] = [];
  const push = (when: unknown, event: ClockEvent) => timeline.push({ at: at(when), event });
  push(ticket.created_at, {
    type: 'created',
    at: at(ticket.created_at),
    status: startStatus,
    priority: priority(initial('priority_id', ticket.priority_id)),
    sla: sla(initial('sla_id', ticket.sla_id)),
  });
  if (done(startStatus)) push(ticket.created_at, { type: 'solved', at: at(ticket.created_at) });

  for (const change of changes) {
    const when = at(change.created_at);
    if (change.field === 'status_id' && change.to_value !== null) {
      const wasDone = done(change.from_value);
      const isDone = done(change.to_value);
      if (wasDone && !isDone) push(when, { type: 'reopened', at: when });
      push(when, { type: 'status_changed', at: when, status: change.to_value });
      if (!wasDone && isDone) {
        const closed = kind.get(change.to_value) === ARCHIVED;
        push(when, { type: closed ? 'closed' : 'solved', at: when });
      }
    } else if (change.field === 'priority_id') {
      push(when, { type: 'priority_changed', at: when, priority: priority(change.to_value) });
    } else if (change.field === 'sla_id') {
      push(when, { type: 'sla_changed', at: when, sla: sla(change.to_value) });
    } else if (change.field === MERGED) {
      // On the merged ticket its entry goes from itself to the kept one; on the kept one, from another.
      const role = change.from_value === String(ticketId) ? 'absorbed' : 'survivor';
      push(when, { type: 'merged', at: when, role });
    }
  }
  for (const message of messages) {
    const when = at(message.created_at);
    if (message.is_from_client) {
      if (message.sender_check === 'unverified' || message.sender_check === 'rejected') continue;
      push(when, { type: 'client_reply', at: when });
    } else if (message.visible_to_client || message.send_to_client) {
      push(when, { type: 'public_operator_reply', at: when });
    }
  }
  // One recorded order: by time (a stable sort: at one instant the ticket's history before its messages).
  const events = timeline.sort((a, b) => a.at - b.at).map((entry) => entry.event);
  return { events, ...appliedFrom(ticket) };
}
