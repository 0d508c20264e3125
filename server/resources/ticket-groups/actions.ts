/**
 * SPEC 4 and 7: POST /ticket-groups/{id}/archive sets archived_at to now (an archived group keeps its
 * first date). Restoring is the generic PUT /ticket-groups/{id} with {archived_at: null}.
 */
import { sql } from 'kysely';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { findRecord, type Deps } from '../repository.ts';
import { actionRoute, OPERATORS_ONLY, recordRef } from '../../docs/action-schema.ts';
import { bySchema } from '../../db/schema-tables.ts';

export const ticketGroupActions: ActionPlugin = async (app, { db, registry }) => {
  const groups = registry.require('ticket-groups');
  const deps: Deps = { db, registry, validation: new BodyValidation() };

  app.post<RecordParams>(
    '/api/ticket-groups/:id/archive',
    actionRoute({
      tag: groups.name,
      operationId: 'ticketGroupsArchive',
      summary: 'Archive a ticket group',
      description:
        '`archived_at` becomes now; an archived group keeps its first date. Restore with ' +
        '`PUT /ticket-groups/{id}` `{archived_at: null}`. Permission `tenant.ticket-groups.archive`. ' +
        OPERATORS_ONLY,
      answers: { 200: { description: 'The archived ticket group.', schema: recordRef(registry, groups) } },
    }),
    async (request) => {
      const auth = await authorize(request, groups, 'archive');
      validInput(request);
      const { id } = request.params;
      await findRecord(deps, auth, groups, id);
      await bySchema(db)
        .updateTable(groups.table)
        .set({ archived_at: sql`coalesce(archived_at, now())`, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('tenant_id', '=', auth.tenantId)
        .execute();
      return findRecord(deps, auth, groups, id);
    },
  );
};
