/**
 * A ticket's status changes are part of its thread (SPEC 4: a status-changed message shows the new
 * status name and who set it). Every path that changes a status (an edit, close, restore) writes one,
 * in the change's transaction; clients read the status's client name (name_client), operators its name,
 * each in the reader's language (statusNames).
 */
import { sql, type RawBuilder } from 'kysely';
import type { DbTransaction } from '../../db/database.ts';
import { type SqlContext } from '../../query/sql.ts';
import { fieldValue, ref } from '../../query/fragments.ts';
import type { AuthContext } from '../../auth/context.ts';
import type { Field } from '../../../common/schema/types.ts';
import { isPortalCaller } from '../../query/visibility.ts';
import type { Row } from '../../query/relations.ts';
import type { PresentContext } from '../hook-contract.ts';
import { escapeHtml } from '../../html/escape.ts';

export const STATUS_CHANGED = 'status-changed';
const STATUSES = 'ticket-statuses';

/** Writes the status-changed message of a ticket whose status became `statusId` (nothing if unchanged). */
export async function logStatusChange(
  trx: DbTransaction,
  auth: AuthContext,
  ticketId: number,
  statusId: number,
  previousStatusId: number | null,
): Promise<void> {
  if (statusId === previousStatusId) return;
  const status = await trx
    .selectFrom('ticket_statuses')
    .select(['id', 'name', 'name_client'])
    .where('tenant_id', '=', auth.tenantId)
    .where('id', '=', statusId)
    .executeTakeFirst();
  if (!status) return;
  await trx
    .insertInto('messages')
    .values({
      tenant_id: auth.tenantId,
      // The stored text is what a mail or an export shows; the thread renders the type itself.
      message: `<p>${escapeHtml(String(status.name_client ?? status.name))}</p>`,
      type: STATUS_CHANGED,
      data: JSON.stringify({ status: { id: Number(status.id), name: status.name } }),
      is_from_client: false,
      visible_to_client: true,
      morphable_type: 'ticket',
      morphable_id: ticketId,
      actor_id: auth.userId,
    })
    .execute();
}

/** The status a ticket has now (under the caller's transaction). */
export async function currentStatusId(
  trx: DbTransaction,
  auth: AuthContext,
  id: number,
): Promise<number | null> {
  const row = await trx
    .selectFrom('tickets')
    .select('status_id')
    .where('tenant_id', '=', auth.tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.status_id === null || row?.status_id === undefined ? null : Number(row.status_id);
}

/**
 * A status-changed message names the status as its reader knows it, in the reader's language: clients
 * the client name (name_client, SPEC 3), operators the name; both translated (x-translated). The name
 * stored in `data` is the one of the moment of the change, in Dutch; it stays for a status since deleted.
 */
export async function statusNames(rows: Row[], { db, auth, registry }: PresentContext): Promise<void> {
  // Rows the query builder read carry their status's name (statusColumn); others are looked up here.
  const carried = new Map<Row, { name: string | null } | null>();
  for (const row of rows) {
    if (STATUS_FACTS in row) carried.set(row, row[STATUS_FACTS]);
    delete row[STATUS_FACTS];
  }
  const changed = rows.filter((r) => r.type === STATUS_CHANGED && r.data && typeof r.data === 'object');
  const ids = [
    ...new Set(
      changed
        .filter((r) => !carried.has(r))
        .map((r) => Number(r.data.status?.id))
        .filter(Number.isSafeInteger),
    ),
  ];
  const names = new Map<number, string | null>();
  if (ids.length) {
    const statuses = registry.require(STATUSES);
    const { rows: found } = await sql<{ id: number; name: string | null }>`
      select s.id, ${statusName(statuses.fields, auth)} as name from ${sql.table(statuses.table)} as s
      where s.tenant_id = ${auth.tenantId} and s.id in (${sql.join(ids)})`.execute(db);
    for (const s of found) names.set(Number(s.id), s.name);
  }
  const client = isPortalCaller(auth);
  for (const row of changed) {
    const status = row.data.status ?? {};
    const id = Number(status.id);
    const known = carried.has(row) ? carried.get(row) : names.has(id) ? { name: names.get(id)! } : null;
    // The operators' name is internal; without a client name the client sees none.
    const name = known ? known.name : client ? null : (status.name ?? null);
    row.data = { ...row.data, status: { ...status, name: name ?? null } };
  }
}

/** The status facts a status-changed message row carries when read by the query builder. */
const STATUS_FACTS = '__status_facts';

/** The reader's name of a status (alias `s`): clients the client name, operators the name. */
function statusName(fields: Record<string, Field>, auth: AuthContext): RawBuilder<unknown> {
  return fieldValue('s', fields[isPortalCaller(auth) ? 'name_client' : 'name']!, auth.language);
}

/**
 * The status of a status-changed message (`alias`) as `{name}` in the reader's words, a column of the
 * statement that reads the messages; null for other messages and for a status since deleted.
 */
export function statusColumn(alias: string, ctx: SqlContext): RawBuilder<unknown> {
  const statuses = ctx.registry.require(STATUSES);
  const id = sql`${ref(alias, 'data')} -> 'status' ->> 'id'`;
  return sql`(case when ${ref(alias, 'type')} = ${STATUS_CHANGED} and ${id} ~ '^[0-9]{1,18}$' then
    (select json_build_object('name', ${statusName(statuses.fields, ctx.auth)}) from ${sql.table(statuses.table)} as s
     where s.tenant_id = ${ctx.auth.tenantId} and s.id = (${id})::bigint) end) as ${sql.id(STATUS_FACTS)}`;
}
