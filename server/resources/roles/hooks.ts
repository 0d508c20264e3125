import { ValidationError } from '../../http/errors.ts';
import type { ResourceHooks } from '../hook-contract.ts';
import { serverText } from '../../../common/server-texts.ts';

export const ROLE_KIND_HELD = serverText('role_kind_held');

/**
 * A role's kind is fixed while accounts hold it: otherwise turning an operators' role into a clients'
 * role would hand its back-office permissions to the clients that then get it (or the other way round).
 */
export const roleHooks: ResourceHooks = {
  async beforeUpdate(id, changes, { trx, auth }) {
    if (changes.is_operator === undefined) return;
    const role = await trx
      .selectFrom('roles')
      .select('is_operator')
      .where('id', '=', id)
      .where('tenant_id', '=', auth.tenantId)
      .executeTakeFirst();
    if (!role || Boolean(role.is_operator) === Boolean(changes.is_operator)) return;
    const holder = await trx
      .selectFrom('users')
      .select('id')
      .where('role_id', '=', id)
      .where('tenant_id', '=', auth.tenantId)
      .limit(1)
      .executeTakeFirst();
    if (holder) throw new ValidationError({ is_operator: [ROLE_KIND_HELD] }, ROLE_KIND_HELD);
  },
};
