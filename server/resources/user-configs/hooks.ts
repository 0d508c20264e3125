import { HttpError } from '../../http/errors.ts';
import type { AuthContext } from '../../auth/context.ts';
import type { HookContext, ResourceHooks } from '../hook-contract.ts';
import { serverText } from '../../../common/server-texts.ts';

export const OTHERS_CONFIGS = serverText('others_settings');

/**
 * A user's settings are theirs: a caller writes only rows of their own user_id, unless they may
 * manage operators (tenant.operators.update), who set up other people's accounts.
 */
const mayWriteFor = (auth: AuthContext, userId: unknown) =>
  Number(userId) === auth.userId || auth.permissions.has('tenant.operators.update');

async function ownerOf(id: number, { trx, auth }: HookContext): Promise<unknown> {
  const row = await trx
    .selectFrom('user_configs')
    .select('user_id')
    .where('id', '=', id)
    .where('tenant_id', '=', auth.tenantId)
    .executeTakeFirst();
  return row?.user_id;
}

function allowOnly(allowed: boolean): void {
  if (!allowed) throw new HttpError(403, OTHERS_CONFIGS);
}

export const userConfigHooks: ResourceHooks = {
  beforeStore(row, { auth }) {
    allowOnly(mayWriteFor(auth, row.user_id));
  },
  async beforeUpdate(id, changes, ctx) {
    allowOnly(mayWriteFor(ctx.auth, await ownerOf(id, ctx)));
    if (changes.user_id !== undefined) allowOnly(mayWriteFor(ctx.auth, changes.user_id));
  },
  async beforeDestroy(id, ctx) {
    allowOnly(mayWriteFor(ctx.auth, await ownerOf(id, ctx)));
  },
};
