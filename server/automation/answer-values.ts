/**
 * The values of a standard answer's placeholders (common/standard-answers/placeholders.ts) for a reply
 * that a macro or a rule writes on a ticket: its client, company, reference and description, and the
 * operator: the one applying a macro, else (a rule) the ticket's own. One statement per ticket.
 */
import { sql } from 'kysely';
import type { DbTransaction } from '../db/database.ts';
import { placeholderText, type PlaceholderValues } from '../../common/standard-answers/placeholders.ts';

export async function answerValues(
  trx: DbTransaction,
  tenantId: number,
  ticketId: number,
  writerId: number | null,
): Promise<PlaceholderValues> {
  const row = await trx
    .selectFrom('tickets as t')
    .leftJoin('users as c', (join) => join.onRef('c.id', '=', 't.client_id').on('c.tenant_id', '=', tenantId))
    .leftJoin('companies as co', (join) =>
      join.onRef('co.id', '=', 't.company_id').on('co.tenant_id', '=', tenantId),
    )
    .leftJoin('users as o', (join) =>
      join
        .on('o.id', '=', sql<number>`coalesce(${writerId}::integer, t.operator_id)`)
        .on('o.tenant_id', '=', tenantId),
    )
    .select([
      't.reference',
      't.description',
      'c.full_name as client',
      'co.name as company',
      'o.full_name as operator',
    ])
    .where('t.tenant_id', '=', tenantId)
    .where('t.id', '=', ticketId)
    .executeTakeFirst();
  const values: PlaceholderValues = {};
  const put = (name: string, value: unknown) => {
    const v = placeholderText(value);
    if (v !== undefined) values[name] = v;
  };
  put('client.name', row?.client);
  put('company.name', row?.company);
  put('ticket.reference', row?.reference);
  put('ticket.description', row?.description);
  put('operator.name', row?.operator);
  return values;
}
