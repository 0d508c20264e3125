import { sql } from 'kysely';
import { HttpError, ValidationError } from '../../http/errors.ts';
import type { HookContext, ResourceHooks } from '../hook-contract.ts';
import { serverText } from '../../../common/server-texts.ts';

export const ROLE_FOR_OPERATORS = serverText('role_for_operators');
export const ROLE_FOR_CLIENTS = serverText('role_for_clients');
export const ROLE_BEYOND_CALLER = serverText('role_beyond_caller');

/**
 * Who may be given which role (docs/decisions.md, "Who may give a role"): a role is for operators or
 * for clients (its is_operator) and goes only to that kind of account; and a caller gives only a role
 * whose back-office permissions they hold themselves, so no one raises another above their own rights.
 */
export function roleAssignment(forOperators: boolean): ResourceHooks {
  const check = async (roleId: unknown, { trx, auth }: HookContext) => {
    if (roleId === undefined || roleId === null) return;
    const role = await trx
      .selectFrom('roles')
      .select(['is_operator', 'grants_all'])
      .where('id', '=', Number(roleId))
      .where('tenant_id', '=', auth.tenantId)
      .executeTakeFirst();
    if (!role) return; // an unknown role_id is the reference check's 422
    if (Boolean(role.is_operator) !== forOperators) {
      const message = forOperators ? ROLE_FOR_CLIENTS : ROLE_FOR_OPERATORS;
      throw new ValidationError({ role_id: [message] }, message);
    }
    // The back-office permissions the role gives: all of them with grants_all, else its own list.
    const granted = await trx
      .selectFrom('permissions as p')
      .select('p.name')
      .where('p.name', 'like', 'tenant.%')
      .$if(!role.grants_all, (q) =>
        q.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('permission_role as pr')
              .select(sql`1`.as('one'))
              .whereRef('pr.permission_id', '=', 'p.id')
              .where('pr.role_id', '=', Number(roleId)),
          ),
        ),
      )
      .execute();
    if (granted.some((p) => !auth.permissions.has(String(p.name)))) {
      throw new HttpError(403, ROLE_BEYOND_CALLER);
    }
  };
  return {
    beforeStore: (row, ctx) => check(row.role_id, ctx),
    beforeUpdate: (_id, changes, ctx) => check(changes.role_id, ctx),
  };
}
