/**
 * Where a new ticket starts (one statement before its insert): its id, drawn from the tickets' sequence
 * so that the reference is written with the row instead of by an update after it, and, when it needs
 * one, its status: the tenant's setting, else its first open status.
 */
import { sql } from 'kysely';
import type { DbTransaction } from '../../db/database.ts';

const OPEN = 1;

interface StatusFacts {
  /** The tenant's default_ticket_status_id setting (text, as an operator typed it). */
  configured: string | null;
  /** The tenant's statuses in their order. */
  statuses: { id: number; internal_type: number }[];
}

/** The columns of a statement that holds what `chooseStatus` chooses from (a subquery each). */
const statusFacts = (tenantId: number) => sql`(select value from tenant_configs
    where tenant_id = ${tenantId} and name = 'default_ticket_status_id') as configured,
  (select coalesce(json_agg(json_build_object('id', id, 'internal_type', internal_type) order by "order", id), '[]')
    from ticket_statuses where tenant_id = ${tenantId}) as statuses`;

/** The setting's status when it is one of the tenant's, else the first open one; null: none at all. */
function chooseStatus({ configured, statuses }: StatusFacts): number | null {
  const wanted = Number(configured);
  const chosen =
    Number.isSafeInteger(wanted) && wanted > 0 ? statuses.find((s) => Number(s.id) === wanted) : undefined;
  const status = chosen ?? statuses.find((s) => Number(s.internal_type) === OPEN);
  return status ? Number(status.id) : null;
}

/** The status a ticket starts in (a new one, a restored one): the tenant's setting, else its first open status. */
export async function defaultStatusId({
  trx,
  auth,
}: {
  trx: DbTransaction;
  auth: { tenantId: number };
}): Promise<number | null> {
  const { rows } = await sql<StatusFacts>`select ${statusFacts(auth.tenantId)}`.execute(trx);
  return chooseStatus(rows[0]!);
}

/**
 * A new ticket's id and its reference, one people can say on the phone: T-<year>-<id, at least five
 * digits> (lpad alone also cuts: from id 100,000 on, every reference was one another ticket had); with
 * `withStatus`, the status it starts in too (null: the tenant has none to start in).
 */
export async function ticketStart(
  trx: DbTransaction,
  tenantId: number,
  withStatus: boolean,
): Promise<{ id: number; reference: string; status: number | null }> {
  const { rows } = await sql<{ id: string; reference: string } & StatusFacts>`select n.id,
      'T-' || to_char(now(), 'YYYY') || '-' || lpad(n.id::text, greatest(5, length(n.id::text)), '0') as reference
      ${withStatus ? sql`, ${statusFacts(tenantId)}` : sql``}
    from (select nextval(pg_get_serial_sequence('tickets', 'id')) as id) as n`.execute(trx);
  const row = rows[0]!;
  return { id: Number(row.id), reference: row.reference, status: withStatus ? chooseStatus(row) : null };
}
