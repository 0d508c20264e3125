/**
 * A ticket's `resolved_at`, in one place for every path that sets a status (an edit form, a quick
 * action or any generic PUT, close, restore, a bulk change, a merge's closing, a new ticket): a ticket
 * is resolved while its status is of a finished internal type, closed (2) or archived (3), the types
 * the demo seed gives a `resolved_at` and `restore` takes back. Entering a finished status sets it to
 * now; moving between finished statuses (closed to archived, one closed status to another) keeps the
 * first moment; any other status (reopening) clears it, as restore always did.
 */
import { sql, type RawBuilder } from 'kysely';

/** SPEC 3 ticket status internal types. */
export const CLOSED = 2;
export const ARCHIVED = 3;
/** The internal types of a resolved ticket. */
export const FINISHED = [CLOSED, ARCHIVED] as const;

/** Whether the tenant's status `statusId` is of a finished type (a subquery, evaluated by the update). */
const finished = (tenantId: number, statusId: number) =>
  sql<boolean>`exists (select 1 from ticket_statuses where id = ${statusId}
    and tenant_id = ${tenantId} and internal_type in (${sql.join([...FINISHED])}))`;

/** The `set` value of `resolved_at` for tickets whose status becomes `statusId` (an UPDATE of tickets). */
export function resolvedAtOnUpdate(tenantId: number, statusId: number): RawBuilder<Date | null> {
  return sql<Date | null>`case when ${finished(tenantId, statusId)}
    then coalesce(${sql.ref('resolved_at')}, now()) else null end`;
}

/** The value of `resolved_at` for a new ticket in status `statusId` (an INSERT). */
export function resolvedAtOnInsert(tenantId: number, statusId: number): RawBuilder<Date | null> {
  return sql<Date | null>`case when ${finished(tenantId, statusId)} then now() else null end`;
}
