import { ValidationError } from '../../http/errors.ts';
import { registry } from '../../schema/registry.ts';
import { fitsReach, portalResourceReachOf } from '../../../common/schema/portal-resources.ts';
import { serverText } from '../../../common/server-texts.ts';
import type { HookContext, ResourceHooks } from '../hook-contract.ts';
import { checkPortalMembershipChange, checkShare } from './access.ts';

/**
 * A role names resources as data: each must be a portal resource of the field's reach
 * (`x-portal-resources`: one scoped by company, or one whose schema says what own means, x-portal.own).
 * Checked against the registry, for the fields the schema marks, never a list here.
 */
function checkResourceNames(row: Record<string, unknown>) {
  const errors: Record<string, string[]> = {};
  for (const field of Object.values(registry().require('company-roles').fields)) {
    const reach = portalResourceReachOf(field);
    // The generic write has made the array the jsonb column's text already.
    const value = row[field.name];
    if (!reach || value === undefined) continue;
    const names: unknown = typeof value === 'string' ? JSON.parse(value) : value;
    if (!Array.isArray(names)) continue;
    const wrong = names.filter((name) => !fitsReach(reach, String(name), (n) => registry().get(n)));
    if (wrong.length)
      errors[field.name] = [
        serverText('company_role_resource', { name: wrong.map(String).join(', ').slice(0, 200) }),
      ];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

/** One default role per tenant: the one just made the default takes it from the others. */
async function oneDefault(row: Record<string, unknown>, { trx, auth }: HookContext, id?: number) {
  if (row.is_default !== true) return;
  await trx
    .updateTable('company_roles')
    .set({ is_default: false })
    .where('tenant_id', '=', auth.tenantId)
    .where('is_default', '=', true)
    .$if(id !== undefined, (q) => q.where('id', '!=', id!))
    .execute();
}

export const companyRoleHooks: ResourceHooks = {
  async beforeStore(row, ctx) {
    checkResourceNames(row);
    await oneDefault(row, ctx);
  },
  async beforeUpdate(id, changes, ctx) {
    checkResourceNames(changes);
    await oneDefault(changes, ctx, id);
  },
};

/** A membership without a role gets the tenant's default one; a client changes only a colleague's role. */
export const companyUserHooks: ResourceHooks = {
  async beforeStore(row, { trx, auth }) {
    if (row.company_role_id !== undefined && row.company_role_id !== null) return;
    const fallback = await trx
      .selectFrom('company_roles')
      .select('id')
      .where('tenant_id', '=', auth.tenantId)
      .where('is_default', '=', true)
      .executeTakeFirst();
    if (fallback) row.company_role_id = fallback.id;
  },
  async beforeUpdate(id, changes, { trx, auth }) {
    const current = await trx
      .selectFrom('company_user')
      .select(['company_id', 'user_id'])
      .where('tenant_id', '=', auth.tenantId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    checkPortalMembershipChange(auth, current, changes);
  },
};

/** Whoever sees a share may end it (the colleague, the ticket's client, a company admin): no hook. */
export const ticketShareHooks: ResourceHooks = {
  beforeStore: (row, { trx, auth }) => checkShare(trx, auth, row),
};
