/** The queue of mail from addresses that are no client: a ticket group per tenant, made when first needed. */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { tenantConfig } from '../../settings/tenant-config.ts';

/** The tenant setting that names the 'unknown sender' queue (a ticket group). */
export const UNKNOWN_SENDER_GROUP = 'unknown_sender_ticket_group_id';
const UNKNOWN_SENDER_NAME = 'Onbekende afzender / Unknown sender';

/** The 'unknown sender' ticket group of the tenant: the setting's, else one made now and set. */
export async function unknownSenderGroup(db: Db, tenantId: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // One maker per tenant at a time: two instances must not make two groups.
    await sql`select pg_advisory_xact_lock(19026, ${tenantId})`.execute(trx);
    const configured = Number(await tenantConfig(trx, tenantId, UNKNOWN_SENDER_GROUP));
    if (Number.isSafeInteger(configured) && configured > 0) {
      const group = await trx
        .selectFrom('ticket_groups')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('id', '=', configured)
        .executeTakeFirst();
      if (group) return Number(group.id);
    }
    const made = await trx
      .insertInto('ticket_groups')
      .values({
        tenant_id: tenantId,
        name: UNKNOWN_SENDER_NAME,
        description: 'E-mail from addresses that are no client: look who it is, then move the ticket.',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .deleteFrom('tenant_configs')
      .where('tenant_id', '=', tenantId)
      .where('name', '=', UNKNOWN_SENDER_GROUP)
      .execute();
    await trx
      .insertInto('tenant_configs')
      .values({ tenant_id: tenantId, name: UNKNOWN_SENDER_GROUP, value: String(made.id) })
      .execute();
    return Number(made.id);
  });
}
