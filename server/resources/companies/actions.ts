/**
 * SPEC 7 company calls beyond CRUD, for operators (clients get 403: no portal action):
 *
 * - POST /companies/{id}/archive: archived_at becomes now (an archived company keeps its first date).
 * - POST /companies/merge {ids}: the first id is kept. Every row that points at the others moves to it
 *   (tickets, assets, contracts, subscriptions, quotes, invoices, deals, projects, ticket groups, clients
 *   without duplicates, custom values the kept one lacks, messages on the company, and whatever table
 *   refers to companies later: see ../merge.ts), then the others are deleted. One transaction, row locks
 *   in id order: of two merges racing on the same company the second waits and finds it gone (422).
 */
import { markForRecheck } from '../../sla/recheck.ts';
import { sql } from 'kysely';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { findRecord, type Deps } from '../repository.ts';
import { lockForMerge, MERGE_BODY, MERGE_FAILS, moveReferences } from '../merge.ts';
import { bodyIds } from '../../http/ids.ts';
import { recordTicketChanges } from '../tickets/history.ts';
import { actionRoute, OPERATORS_ONLY, recordRef } from '../../docs/action-schema.ts';

export const companyActions: ActionPlugin = async (app, { db, registry }) => {
  const companies = registry.require('companies');
  const deps: Deps = { db, registry, validation: new BodyValidation() };
  const company = recordRef(registry, companies);

  app.post<RecordParams>(
    '/api/companies/:id/archive',
    actionRoute({
      tag: companies.name,
      operationId: 'companiesArchive',
      summary: 'Archive a company',
      description:
        '`archived_at` becomes now; an archived company keeps its first date. Permission ' +
        `\`tenant.companies.archive\`. ${OPERATORS_ONLY}`,
      answers: { 200: { description: 'The archived company.', schema: company } },
    }),
    async (request) => {
      const auth = await authorize(request, companies, 'archive');
      validInput(request);
      const { id } = request.params;
      await findRecord(deps, auth, companies, id);
      await db
        .updateTable('companies')
        .set({ archived_at: sql`coalesce(archived_at, now())`, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('tenant_id', '=', auth.tenantId)
        .execute();
      return findRecord(deps, auth, companies, id);
    },
  );

  const merge = actionRoute({
    tag: companies.name,
    operationId: 'companiesMerge',
    summary: 'Merge companies into the first one',
    description:
      'Every row that refers to the other companies (tickets, assets, contracts, subscriptions, quotes, ' +
      'invoices, deals, projects, ticket groups, used products, clients without duplicates, custom ' +
      'values the first company lacks, messages on the company) moves to the first company; the others ' +
      `are deleted. One transaction. ${MERGE_FAILS} Permission \`tenant.companies.merge\`. ${OPERATORS_ONLY}`,
    params: false,
    body: MERGE_BODY,
    answers: { 200: { description: 'The kept company.', schema: company } },
  });
  app.post('/api/companies/merge', merge, async (request) => {
    const auth = await authorize(request, companies, 'merge');
    validInput(request);
    const ids = bodyIds(request.body);
    const [kept, ...merged] = ids as [number, ...number[]];
    await db.transaction().execute(async (trx) => {
      await lockForMerge(deps, trx, auth, companies, ids);
      // The merged companies' tickets change company: in their history, named while the names exist.
      const moved = await trx
        .selectFrom('tickets')
        .select('id')
        .where('tenant_id', '=', auth.tenantId)
        .where('company_id', 'in', merged)
        .where('is_template', '=', false)
        .execute();
      await recordTicketChanges(
        trx,
        registry,
        auth,
        moved.map((t) => Number(t.id)),
        { company_id: kept },
      );
      await moveReferences(trx, registry, companies, kept, merged);
      // Their SLA may now be the kept company's: measured again by the background pass (issue 35).
      await markForRecheck(trx, auth.tenantId, sql<boolean>`company_id = ${kept} and sla_id is null`);
      await trx
        .deleteFrom('companies')
        .where('id', 'in', merged)
        .where('tenant_id', '=', auth.tenantId)
        .execute();
      await trx
        .updateTable('companies')
        .set({ updated_at: sql`now()` })
        .where('id', '=', kept)
        .where('tenant_id', '=', auth.tenantId)
        .execute();
    });
    return findRecord(deps, auth, companies, kept);
  });
};
