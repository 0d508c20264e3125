/**
 * The deadline check (issue 19, item 3): an operator is told when a deadline of an open ticket of
 * theirs is an hour away (`deadline_soon`) and when it has passed (`deadline_passed`). Every instance
 * runs the check (a WakeLoop, every DEADLINE_CHECK_MS); each notification is made once all the same,
 * keyed by kind, ticket and deadline value (`dedupe_key`, unique per tenant and user): a second
 * instance's insert of the same key does nothing, and a deadline moved later is a new key, told again.
 * Deadlines passed more than a day before are left alone (a ticket imported overdue tells nobody).
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { notify, type NewNotification } from './notify.ts';

const CLOSED = 2;
const ARCHIVED = 3;
/** At most this many notifications per look; the next look goes on. */
const BATCH = 500;

/** Makes the deadline notifications due now; answers how many were made. */
export async function checkDeadlines(db: Db): Promise<number> {
  const due = await sql<{
    id: number;
    tenant_id: number;
    operator_id: number;
    kind: 'deadline_soon' | 'deadline_passed';
    dedupe_key: string;
  }>`
    with due as (
      select t.id, t.tenant_id, t.operator_id,
        case when t.deadline <= now() then 'deadline_passed' else 'deadline_soon' end as kind,
        t.deadline
      from tickets t
      join ticket_statuses s on s.id = t.status_id
      where t.deadline is not null and t.operator_id is not null and t.resolved_at is null
        and not t.is_template
        and t.deadline <= now() + interval '1 hour' and t.deadline > now() - interval '1 day'
        and s.internal_type not in (${CLOSED}, ${ARCHIVED})
    ), keyed as (
      select due.*, due.kind || ':' || due.id || ':' || (extract(epoch from due.deadline) * 1000)::bigint
        as dedupe_key
      from due
    )
    select k.id, k.tenant_id, k.operator_id, k.kind, k.dedupe_key from keyed k
    where not exists (
      select 1 from notifications n
      where n.tenant_id = k.tenant_id and n.user_id = k.operator_id and n.dedupe_key = k.dedupe_key
    )
    order by k.id
    limit ${BATCH}`.execute(db);
  if (due.rows.length === 0) return 0;
  const notifications: NewNotification[] = due.rows.map((r) => ({
    tenantId: Number(r.tenant_id),
    userId: Number(r.operator_id),
    kind: r.kind,
    ticketId: Number(r.id),
    dedupeKey: r.dedupe_key,
  }));
  return db.transaction().execute((trx) => notify(trx, notifications));
}
