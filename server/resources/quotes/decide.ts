/** Accepting (with a signature) and declining a sent quote: the client's decision. See ./actions.ts. */
import { sql } from 'kysely';
import { authorize } from '../plugin.ts';
import { validInput, validInputWith, type RecordParams } from '../../http/route-validation.ts';
import { findRecord } from '../repository.ts';
import { actionRoute } from '../../docs/action-schema.ts';
import { serverText } from '../../../common/server-texts.ts';
import type { QuoteCalls } from './calls.ts';
import { webhookEvent } from '../webhooks/enqueue.ts';
import {
  ACCEPTANCE_BODY,
  acceptance,
  ACCEPTED,
  DECLINED,
  lockSentQuote,
  QUOTE_EXPIRED,
  refuseWhenExpired,
  undecodable,
} from './decision.ts';

export function decisionRoutes({ app, db, deps, quotes, quote }: QuoteCalls): void {
  app.post<RecordParams>(
    '/api/quotes/:id/accept',
    actionRoute({
      tag: quotes.name,
      operationId: 'quotesAccept',
      summary: 'Accept a sent quote (status 2) with a signature',
      description:
        'By whoever may see the quote and holds `accept`: a client of its company, the holder of its link ' +
        '(`X-Quote-Token`) or an operator. Two accepts racing: one wins, the other gets 422. A quote past ' +
        'its validity date (`valid_until` before today in Amsterdam) answers 422 under `valid_until`, until ' +
        'an operator extends it (PUT `valid_until`, permission `tenant.quotes.update`).',
      body: ACCEPTANCE_BODY,
      answers: { 200: { description: 'The quote, now accepted (status 3).', schema: quote } },
    }),
    async (request) => {
      const auth = await authorize(request, quotes, 'accept');
      validInput(request, 'params');
      const { id } = request.params;
      await findRecord(deps, auth, quotes, id);
      // by hand: decoding the signature is work for an allowed caller; the schema runs before auth.
      validInputWith(request, undecodable(request.body));
      const { name, note, signature } = acceptance(request.body);
      await db.transaction().execute(async (trx) => {
        const { validUntil } = await lockSentQuote(trx, auth, id, serverText('quote_not_acceptable'));
        refuseWhenExpired(validUntil, QUOTE_EXPIRED);
        const { acceptedAt } = await trx
          .updateTable('quotes')
          .set({
            status_id: ACCEPTED,
            signed_name: name,
            signed_note: note,
            signature,
            accepted_at: sql`now()`,
            declined_at: null,
            updated_at: sql`now()`,
          })
          .where('id', '=', id)
          .where('tenant_id', '=', auth.tenantId)
          .returning('accepted_at as acceptedAt')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('quote_acceptances')
          .values({
            tenant_id: auth.tenantId,
            quote_id: id,
            name: name,
            note: note,
            signature,
            accepted_at: acceptedAt!, // set to now() just above
            ip: request.ip ?? null,
            user_id: auth.userId,
            via_token: auth.kind === 'record-token',
          })
          .execute();
        await webhookEvent(trx, auth.tenantId, 'quote.accepted', { quote_id: id });
      });
      return findRecord(deps, auth, quotes, id);
    },
  );

  app.post<RecordParams>(
    '/api/quotes/:id/decline',
    actionRoute({
      tag: quotes.name,
      operationId: 'quotesDecline',
      summary: 'Decline a sent quote (status 4)',
      description: 'As accepting: whoever may see the quote and holds `decline`; only a sent quote.',
      answers: { 200: { description: 'The quote, now declined.', schema: quote } },
    }),
    async (request) => {
      const auth = await authorize(request, quotes, 'decline');
      validInput(request);
      const { id } = request.params;
      await findRecord(deps, auth, quotes, id);
      await db.transaction().execute(async (trx) => {
        await lockSentQuote(trx, auth, id, serverText('quote_not_declinable'));
        await trx
          .updateTable('quotes')
          .set({ status_id: DECLINED, declined_at: sql`now()`, updated_at: sql`now()` })
          .where('id', '=', id)
          .where('tenant_id', '=', auth.tenantId)
          .execute();
      });
      return findRecord(deps, auth, quotes, id);
    },
  );
}
