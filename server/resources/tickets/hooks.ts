import { sql } from 'kysely';
import type { ResourceHooks } from '../hooks.ts';

/** Tickets get a reference people can say on the phone: T-<year>-<id, five digits>. */
export const ticketHooks: ResourceHooks = {
  async afterStore(id, { trx, resource }) {
    await sql`update ${sql.table(resource.table)}
      set reference = 'T-' || to_char(now(), 'YYYY') || '-' || lpad(id::text, 5, '0')
      where id = ${id} and reference is null`.execute(trx);
  },
};
