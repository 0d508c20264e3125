/**
 * The calls of API tokens (issue 38, item 3) beside the generic list and show:
 *
 * POST /api/api-tokens: the generic create (schema, hooks.ts, audit), in place of the generic route
 * because its answer carries the token itself, `token`, this once: the database keeps only its hash.
 *
 * POST /api/api-tokens/{id}/revoke: sets `revoked_at` (the record stays for the audit log). The caller
 * needs `tenant.api-tokens.revoke` and must see the token (their own, or any with `manage`: x-own-rows),
 * else 404. From the commit on the token is refused on this instance, and on the others as soon as they
 * hear migration 0048's notification (a logout's path), within a second.
 */
import { sql } from 'kysely';
import type { Schema } from '../../docs/refs.ts';
import { checkedStoreSchema } from '../../docs/resource-schemas.ts';
import { actionRoute, recordRef } from '../../docs/action-schema.ts';
import { validating, validInput, type RecordParams } from '../../http/route-validation.ts';
import { newApiToken } from '../../auth/api-tokens.ts';
import { auditRecord } from '../../audit/records.ts';
import { BodyValidation, CheckedBySchema } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { findRecord, storeRecord, type Deps } from '../repository.ts';

/** The generic create's schema, its answer with the token added. */
function createSchema(generic: Schema): Schema {
  const response = generic.response as Record<string, Schema>;
  const created = response[201]!;
  const { description, ...record } = created;
  return {
    ...generic,
    description: [
      generic.description,
      'The answer holds the token (`token`, `sdk_…`) this one time: store it now, it cannot be shown again.',
    ]
      .filter(Boolean)
      .join('\n\n'),
    response: {
      ...response,
      201: {
        description,
        allOf: [
          record,
          {
            type: 'object',
            required: ['token'],
            properties: {
              token: { type: 'string', description: 'The bearer token, shown this once.' },
            },
          },
        ],
      },
    },
  };
}

export const apiTokenRoutes: ActionPlugin = async (app, { db, registry }) => {
  const tokens = registry.require('api-tokens');
  const deps: Deps = { db, registry, validation: new BodyValidation() };
  // The create's body is its route schema's to check (validInput), in the same words.
  const bySchema: Deps = { ...deps, validation: new CheckedBySchema() };

  app.post(
    '/api/api-tokens',
    validating(createSchema(checkedStoreSchema(registry, tokens))),
    async (request, reply) => {
      const auth = await authorize(request, tokens, 'store');
      validInput(request);
      const secret = newApiToken();
      // by hand (hooks.ts): the scopes against the permissions the server knows, the expiry against the
      // clock, a token made with a token, and the owner (the database): no schema knows them.
      const record = await storeRecord(bySchema, auth, tokens, request.body, async (id, trx) => {
        await trx
          .updateTable('api_tokens')
          .set({ token_hash: secret.hash, prefix: secret.prefix })
          .where('id', '=', id)
          .execute();
      });
      reply.status(201);
      // The stored prefix is written after the generic write read the record back.
      return { ...record, prefix: secret.prefix, token: secret.token };
    },
  );

  app.post<RecordParams>(
    '/api/api-tokens/:id/revoke',
    actionRoute({
      tag: 'api-tokens',
      operationId: 'apiTokensRevoke',
      summary: 'Revoke an API token',
      description:
        'Needs `tenant.api-tokens.revoke`; a token of someone else is a 404 without `tenant.api-tokens.manage`. ' +
        'Revoking a revoked token changes nothing. The token is refused on every instance within a second.',
      answers: { 200: { description: 'The token, revoked.', schema: recordRef(registry, tokens) } },
    }),
    async (request) => {
      const auth = await authorize(request, tokens, 'revoke');
      validInput(request);
      const { id } = request.params;
      const ownerId = await db.transaction().execute(async (trx) => {
        // Through the generic read: its scope (tenant, x-own-rows) decides what the caller may revoke.
        const before = await findRecord(deps, auth, tokens, id, undefined, trx);
        if (before.revoked_at !== null) return undefined;
        const at = new Date();
        await trx
          .updateTable('api_tokens')
          .set({ revoked_at: at, updated_at: sql<Date>`now()` })
          .where('id', '=', id)
          .where('tenant_id', '=', auth.tenantId)
          .execute();
        await auditRecord(trx, auth, tokens, 'update', id, {
          before,
          after: { revoked_at: at.toISOString() },
        });
        return Number(before.owner_id);
      });
      // This instance at once, after the commit (a load in between would read the token unrevoked); the
      // others by the notification the update sends at commit.
      if (ownerId !== undefined) request.server.authenticator.cache.forgetUser(auth.tenantId, ownerId);
      return findRecord(deps, auth, tokens, id);
    },
  );
};
