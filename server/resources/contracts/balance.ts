/**
 * GET /api/tickets/{id}/contract-balance (issue 39, item 2): the balance of the ticket's company's
 * running contracts, for the ticket detail's bars: each contract's current period with its hours,
 * used and remaining (server/reports/contract-balance.ts), and whether it has run low.
 *
 * The ticket is found as GET /tickets/{id} finds it (tenant, and for a client the portal's scope: a
 * ticket they may not see is 404), and the contracts as GET /contracts finds them (the same scope, so
 * a client sees only contracts of their own companies); a caller who may not read contracts gets none.
 */
import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { may } from '../../auth/may.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { actionRoute } from '../../docs/action-schema.ts';
import { and, ref, tableAs } from '../../query/fragments.ts';
import { baseConditions, sqlContext } from '../../query/sql.ts';
import { BodyValidation } from '../../schema/validate.ts';
import { currentBalances } from '../../reports/contract-balance.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { findRecord, type Deps } from '../repository.ts';

const BALANCE = {
  type: 'object',
  required: [
    'contract_id',
    'contract_name',
    'prepaid',
    'balance_threshold',
    'period_id',
    'period_start',
    'period_end',
    'minutes_total',
    'registered_time',
    'minutes_remaining',
    'level',
  ],
  properties: {
    contract_id: { type: 'integer' },
    contract_name: { type: 'string' },
    prepaid: { type: 'boolean', description: "Period 'none': a prepaid card, topped up by buying more." },
    balance_threshold: { type: 'integer', description: 'Percentage under which the balance is low.' },
    period_id: { type: 'integer' },
    period_start: { type: 'string', format: 'date' },
    period_end: { type: ['string', 'null'], format: 'date' },
    minutes_total: { type: 'integer' },
    registered_time: { type: 'integer', description: 'Minutes used (rounded, as booked).' },
    minutes_remaining: { type: 'integer' },
    level: { type: ['string', 'null'], enum: ['low', 'empty', null] },
  },
  additionalProperties: false,
};

export const ticketBalanceRoute: ActionPlugin = async (app, { db, registry }) => {
  const tickets = registry.require('tickets');
  const contracts = registry.require('contracts');
  const deps: Deps = { db, registry, validation: new BodyValidation() };

  app.get<RecordParams>(
    '/api/tickets/:id/contract-balance',
    actionRoute({
      tag: tickets.name,
      operationId: 'ticketsContractBalance',
      summary: "The balance of the ticket's company's contracts",
      description:
        "Each running contract of the ticket's company (that the caller may read) with its current period: " +
        'hours in minutes, used and remaining, the low-balance threshold and level. Empty without a company.',
      answers: {
        200: {
          description: 'The balances, by contract name.',
          schema: {
            type: 'object',
            required: ['data'],
            properties: { data: { type: 'array', items: BALANCE } },
            additionalProperties: false,
          },
        },
      },
    }),
    async (request: FastifyRequest<RecordParams>) => {
      const auth = await authorize(request, tickets, 'show');
      validInput(request);
      const { id } = request.params;
      await findRecord(deps, auth, tickets, id);
      if (!may(auth, contracts, 'index')) return { data: [] };
      const ticket = await db
        .selectFrom('tickets')
        .select('company_id')
        .where('id', '=', id)
        .where('tenant_id', '=', auth.tenantId)
        .executeTakeFirst();
      if (!ticket?.company_id) return { data: [] };
      // The company's contracts, narrowed by the contracts' own scope (the ONE place: baseConditions).
      const ctx = sqlContext(registry, auth);
      const alias = ctx.nextAlias();
      const where = and([
        ...baseConditions(ctx, contracts, alias),
        sql`exists (select 1 from company_contract cc where cc.contract_id = ${ref(alias, 'id')}
          and cc.company_id = ${Number(ticket.company_id)})`,
      ]);
      const { rows } = await sql<{ id: number }>`select ${ref(alias, 'id')} as id
        from ${tableAs(contracts, alias)} where ${where}`.execute(db);
      const balances = await currentBalances(db, {
        tenantId: auth.tenantId,
        contractIds: rows.map((r) => Number(r.id)),
      });
      const data = balances
        .map(({ tenant_id: _tenant, ...balance }) => balance)
        .sort((a, b) => a.contract_name.localeCompare(b.contract_name) || a.contract_id - b.contract_id);
      return { data };
    },
  );
};
