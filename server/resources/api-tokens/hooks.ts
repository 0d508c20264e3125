/**
 * An API token's rules on create (issue 38, item 3), beyond what its schema says:
 * - its scopes are permission names the server knows (`tenant.<resource>.<action>`); what it may do is
 *   decided at each call as the owner's permissions within them (server/auth/api-tokens.ts);
 * - it expires within MAX_TOKEN_DAYS: a forgotten token does not stay valid for ever;
 * - it is the caller's own, or a service account's for a caller who may manage tokens (second line):
 *   nobody makes a token that acts as another person;
 * - a call made with a token cannot make tokens: a leaked token must not be able to renew itself.
 */
import { forbidden, HttpError, ValidationError } from '../../http/errors.ts';
import { registry } from '../../schema/registry.ts';
import { EXTRA_PERMISSIONS } from '../../db/seed/permissions.ts';
import { serverText } from '../../../common/server-texts.ts';
import type { ResourceHooks } from '../hook-contract.ts';

export const MAX_TOKEN_DAYS = 366;
export const MANAGE_PERMISSION = 'tenant.api-tokens.manage';

let known: Set<string> | undefined;

/** The back office's permission names, which a token's scopes are drawn from. */
export function scopeNames(): Set<string> {
  known ??= new Set(
    [...registry().permissionNames(), ...EXTRA_PERMISSIONS].filter((name) => name.startsWith('tenant.')),
  );
  return known;
}

export const apiTokenHooks: ResourceHooks = {
  async beforeStore(row, { trx, auth }) {
    if (auth.tokenId !== undefined) throw new HttpError(403, serverText('token_by_token'));
    if (auth.kind !== 'operator' || auth.userId === null) throw forbidden();

    const scopes: unknown = typeof row.scopes === 'string' ? JSON.parse(row.scopes) : row.scopes;
    const names = scopeNames();
    const unknown = (Array.isArray(scopes) ? scopes : []).find((s) => !names.has(String(s)));
    if (unknown !== undefined)
      throw new ValidationError({ scopes: [serverText('token_scope_unknown', { name: String(unknown) })] });

    const expires = new Date(String(row.expires_at)).getTime();
    if (!(expires > Date.now())) throw new ValidationError({ expires_at: [serverText('token_expiry_past')] });
    if (expires > Date.now() + MAX_TOKEN_DAYS * 86_400_000)
      throw new ValidationError({
        expires_at: [serverText('token_expiry_too_far', { count: MAX_TOKEN_DAYS })],
      });

    const ownerId = Number(row.owner_id);
    if (ownerId !== auth.userId) {
      const owner = await trx
        .selectFrom('users')
        .select('service_account')
        .where('tenant_id', '=', auth.tenantId)
        .where('id', '=', ownerId)
        .where('is_staff', '=', true)
        .executeTakeFirst();
      if (!auth.permissions.has(MANAGE_PERMISSION) || !owner?.service_account)
        throw new ValidationError({ owner_id: [serverText('token_owner_refused')] });
    }
  },
};
