/**
 * SPEC 7 POST /contracts/{id}/buy {prepaid_card_id}: tops a prepaid contract (period 'none') up with a
 * prepaid card. One transaction: the card's hours are added to the contract (quantity in hours,
 * minutes_remaining in minutes) and to its current period with `x = x + n` updates, so two racing buys
 * both count, and the purchase (card, hours, price, buyer) is recorded.
 */
import { sql } from 'kysely';
import { ValidationError } from '../../http/errors.ts';
import { MAX_ID } from '../../http/ids.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { findRecord, type Deps } from '../repository.ts';
import { actionRoute, blankIsMissing, closedBody, recordRef } from '../../docs/action-schema.ts';
import { serverText } from '../../../common/server-texts.ts';

const INVALID_CARD = serverText('prepaid_card_invalid');
const NOT_PREPAID = serverText('prepaid_only');

export const contractActions: ActionPlugin = async (app, { db, registry }) => {
  const contracts = registry.require('contracts');
  const deps: Deps = { db, registry, validation: new BodyValidation() };

  app.post<RecordParams>(
    '/api/contracts/:id/buy',
    actionRoute({
      tag: contracts.name,
      operationId: 'contractsBuy',
      summary: 'Buy a prepaid card on a prepaid contract (period none)',
      description:
        "The card's hours are added to the contract and to its current period, and the purchase is " +
        'recorded. A contract with a period answers 422.',
      body: closedBody(
        {
          prepaid_card_id: blankIsMissing('field_required', {
            type: 'integer',
            minimum: 1,
            maximum: MAX_ID,
            'x-error': INVALID_CARD,
          }),
        },
        ['prepaid_card_id'],
      ),
      answers: {
        200: {
          description: "The contract with the card's hours added.",
          schema: recordRef(registry, contracts),
        },
      },
    }),
    async (request) => {
      const auth = await authorize(request, contracts, 'buy');
      validInput(request, 'params');
      const { id } = request.params;
      await findRecord(deps, auth, contracts, id);
      validInput(request);
      const cardId = (request.body as { prepaid_card_id: number }).prepaid_card_id;
      const contract = await db
        .selectFrom('contracts')
        .select('period')
        .where('id', '=', id)
        .where('tenant_id', '=', auth.tenantId)
        .executeTakeFirstOrThrow();
      if (contract.period !== 'none') throw new ValidationError({ contract: [NOT_PREPAID] }, NOT_PREPAID);
      const card = await db
        .selectFrom('prepaid_cards')
        .select(['id', 'description', 'hours', 'price'])
        .where('id', '=', cardId)
        .where('tenant_id', '=', auth.tenantId)
        .executeTakeFirst();
      if (!card) throw new ValidationError({ prepaid_card_id: [INVALID_CARD] });
      const hours = Number(card.hours);
      const minutes = Math.round(hours * 60);

      await db.transaction().execute(async (trx) => {
        // The period condition again: a contract changed to a period meanwhile is not topped up.
        const updated = await trx
          .updateTable('contracts')
          .set({
            minutes_remaining: sql`minutes_remaining + ${minutes}`,
            quantity: sql`quantity + ${hours}`,
            updated_at: sql`now()`,
          })
          .where('id', '=', id)
          .where('tenant_id', '=', auth.tenantId)
          .where('period', '=', 'none')
          .returning('id')
          .executeTakeFirst();
        if (!updated) throw new ValidationError({ contract: [NOT_PREPAID] }, NOT_PREPAID);
        // The card's current period (the latest one) holds the same hours.
        await trx
          .updateTable('contract_periods')
          .set({
            minutes_total: sql`minutes_total + ${minutes}`,
            minutes_remaining: sql`minutes_remaining + ${minutes}`,
            updated_at: sql`now()`,
          })
          .where(
            'id',
            '=',
            trx
              .selectFrom('contract_periods')
              .select('id')
              .where('contract_id', '=', id)
              .where('tenant_id', '=', auth.tenantId)
              .orderBy('period_start', 'desc')
              .orderBy('id', 'desc')
              .limit(1),
          )
          .execute();
        await trx
          .insertInto('prepaid_purchases')
          .values({
            tenant_id: auth.tenantId,
            contract_id: id,
            prepaid_card_id: card.id,
            description: card.description,
            hours: card.hours,
            price: card.price,
            user_id: auth.userId,
          })
          .execute();
      });
      return findRecord(deps, auth, contracts, id);
    },
  );
};
