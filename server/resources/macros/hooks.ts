/**
 * A macro's rules on every write (issue 37, item 3), beyond what its schema says:
 * - its actions are the automation's action language, checked against the tenant's data, and each is an
 *   action the writer may take by hand (a macro is not a way round a permission);
 * - a team macro (personal false) is everyone's: only an operator who may share macros
 *   (`tenant.macros.share`) writes one; a personal one is its owner's (x-personal) and has no role.
 */
import { ValidationError } from '../../http/errors.ts';
import { checkActions } from '../../automation/check-actions.ts';
import { registry } from '../../schema/registry.ts';
import { serverText } from '../../../common/server-texts.ts';
import type { HookContext, ResourceHooks } from '../hook-contract.ts';

export const SHARE_PERMISSION = 'tenant.macros.share';

/** By hand: two fields together (personal and role) and the caller's permission, which a schema cannot say. */
function checkSharing(personal: boolean, roleId: unknown, { auth }: HookContext): void {
  if (personal && roleId !== null && roleId !== undefined)
    throw new ValidationError({ role_id: [serverText('macro_personal_role')] });
  if (!personal && !auth.permissions.has(SHARE_PERMISSION))
    throw new ValidationError({ personal: [serverText('macro_share_refused')] });
}

/**
 * The actions as the writer sent them (the write gives JSON columns as text), checked, as the column's
 * text. A person applies a macro, so its list may hold person-only actions where its field says so.
 */
async function checkedActions(column: unknown, { trx, auth, resource }: HookContext): Promise<string> {
  const raw: unknown = typeof column === 'string' ? JSON.parse(column) : column;
  const person = resource.fields.actions?.schema['x-person-actions'] === true;
  return JSON.stringify(await checkActions(trx, registry(), auth, raw, { permissions: true, person }));
}

export const macroHooks: ResourceHooks = {
  async beforeStore(row, ctx) {
    checkSharing(row.personal === true, row.role_id, ctx);
    row.actions = await checkedActions(row.actions, ctx);
  },
  async beforeUpdate(id, changes, ctx) {
    const current = await ctx.trx
      .selectFrom('macros')
      .select(['personal', 'role_id'])
      .where('tenant_id', '=', ctx.auth.tenantId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const personal = 'personal' in changes ? changes.personal === true : current.personal;
    const roleId = 'role_id' in changes ? changes.role_id : current.role_id;
    // Changing a team macro, even into one's own, is the sharers' to do.
    checkSharing(personal && current.personal, roleId, ctx);
    if ('actions' in changes) changes.actions = await checkedActions(changes.actions, ctx);
  },
};
