/**
 * POST /operators/{id}/reset-two-factor and POST /clients/{id}/reset-two-factor (issue 38, item 1):
 * removes another user's second factor (secret and recovery codes), so they can sign in with their
 * password and enrol again; a lost phone otherwise locks them out. A permission of its own,
 * `tenant.<resource>.reset-two-factor`, which second line holds and first line not
 * (server/db/seed/permissions.ts); audited as `two_factor.reset` on the record. A user not visible to
 * the caller is a 404 (findRecord), as everywhere.
 */
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { findRecord, type Deps } from '../repository.ts';
import { BodyValidation } from '../../schema/validate.ts';
import { actionRoute, OPERATORS_ONLY, recordRef } from '../../docs/action-schema.ts';
import { removeTwoFactor } from '../../auth/two-factor/store.ts';
import { audit } from '../../audit/audit.ts';

export const resetTwoFactorActions: ActionPlugin = async (app, { db, registry }) => {
  const deps: Deps = { db, registry, validation: new BodyValidation() };
  for (const name of ['operators', 'clients']) {
    const resource = registry.require(name);
    const operationId = `${name}ResetTwoFactor`;
    app.post<RecordParams>(
      `/api/${name}/:id/reset-two-factor`,
      actionRoute({
        tag: name,
        operationId,
        summary: `Reset the two-factor sign-in of ${name === 'operators' ? 'an operator' : 'a client'}`,
        description:
          'Removes the secret and the recovery codes: the user signs in with the password and, where the ' +
          `role requires it, enrols again. Permission \`tenant.${name}.reset-two-factor\`. ${OPERATORS_ONLY}`,
        answers: { 200: { description: 'The user.', schema: recordRef(registry, resource) } },
      }),
      async (request) => {
        const auth = await authorize(request, resource, 'reset-two-factor');
        validInput(request);
        const { id } = request.params;
        await findRecord(deps, auth, resource, id);
        await db.transaction().execute(async (trx) => {
          const removed = await removeTwoFactor(trx, auth.tenantId, id);
          await audit(trx, auth, {
            action: 'two_factor.reset',
            resource: name,
            recordId: id,
            changes: { two_factor: [removed, false] },
          });
        });
        // The user's cached context holds nothing of two-factor: their sessions go on as they were.
        return findRecord(deps, auth, resource, id);
      },
    );
  }
};
