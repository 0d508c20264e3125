/**
 * Ticking a checklist item (issue 37, item 4): the caller sends `done`, the server writes who and when
 * (`done_at`, `done_by`, and `done_by_name`: the name at that moment, an operator's or a client's, which
 * both apps show without reading users the client may not see). Sending the state an item has already
 * keeps its who and when. A client changes nothing but `done` (x-portal's fields are what it reads).
 */
import { sql } from 'kysely';
import { ValidationError } from '../../http/errors.ts';
import { isPortalCaller } from '../../query/visibility.ts';
import { serverText } from '../../../common/server-texts.ts';
import type { HookContext, ResourceHooks } from '../hook-contract.ts';

/** The columns of a tick (true) or an untick (false) by the caller. */
async function tick(done: boolean, { trx, auth }: HookContext): Promise<Record<string, unknown>> {
  if (!done) return { done_at: null, done_by: null, done_by_name: null };
  const user =
    auth.userId === null
      ? undefined
      : await trx.selectFrom('users').select('full_name').where('id', '=', auth.userId).executeTakeFirst();
  return { done_at: sql`now()`, done_by: auth.userId, done_by_name: user?.full_name ?? null };
}

export const checklistItemHooks: ResourceHooks = {
  async beforeStore(row, ctx) {
    Object.assign(row, await tick(row.done === true, ctx));
  },
  async beforeUpdate(id, changes, ctx) {
    // By hand: the portal reads more of an item than it may write (x-portal fields are one list).
    if (isPortalCaller(ctx.auth)) {
      const others = Object.keys(changes).filter((name) => name !== 'done');
      if (others.length)
        throw new ValidationError(
          Object.fromEntries(others.map((name) => [name, [serverText('checklist_client_ticks_only')]])),
        );
    }
    if (!('done' in changes)) return;
    const current = await ctx.trx
      .selectFrom('checklist_items')
      .select('done')
      .where('id', '=', id)
      .where('tenant_id', '=', ctx.auth.tenantId)
      .executeTakeFirst();
    if (current && current.done === changes.done) delete changes.done;
    else Object.assign(changes, await tick(changes.done === true, ctx));
  },
};
