/** Duplicating a quote: its own fields, custom values and lines copied into a new concept quote. */
import { sql } from 'kysely';
import { authorize } from '../plugin.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { findRecord, storeRecord, writableFields } from '../repository.ts';
import { actionRoute, OPERATORS_ONLY } from '../../docs/action-schema.ts';
import type { QuoteCalls } from './calls.ts';
import { CONCEPT } from './decision.ts';

export function duplicateRoute({ app, deps, quotes, quote }: QuoteCalls): void {
  app.post<RecordParams>(
    '/api/quotes/:id/duplicate',
    actionRoute({
      tag: quotes.name,
      operationId: 'quotesDuplicate',
      summary: 'Copy a quote as a new concept quote',
      description:
        "A new quote (status 1) with the quote's own fields, custom values, lines and total; nothing of its " +
        `sending, signature or decision. One transaction. Permission \`tenant.quotes.duplicate\`. ${OPERATORS_ONLY}`,
      answers: { 201: { description: 'The new quote.', schema: quote } },
    }),
    async (request, reply) => {
      const auth = await authorize(request, quotes, 'duplicate');
      validInput(request);
      const { id } = request.params;
      const original = await findRecord(deps, auth, quotes, id);
      const body: Record<string, unknown> = {};
      for (const field of writableFields(quotes, auth)) {
        if (field.name === 'status_id' || original[field.name] === undefined) continue;
        const value = original[field.name];
        body[field.name] = value instanceof Date ? value.toISOString() : value;
      }
      body.status_id = CONCEPT;
      const copy = await storeRecord(deps, auth, quotes, body, async (newId, trx) => {
        await sql`insert into quote_lines
          (tenant_id, quote_id, product_id, description, quantity, price, vat_percentage, total, "order")
        select tenant_id, ${newId}, product_id, description, quantity, price, vat_percentage, total, "order"
        from quote_lines where tenant_id = ${auth.tenantId} and quote_id = ${id} order by "order", id`.execute(
          trx,
        );
        await sql`update quotes set total = (select total from quotes where id = ${id} and tenant_id = ${auth.tenantId})
        where id = ${newId} and tenant_id = ${auth.tenantId}`.execute(trx);
        if (quotes.morphType)
          await sql`insert into custom_values (tenant_id, custom_field_id, morphable_type, morphable_id, value)
          select tenant_id, custom_field_id, morphable_type, ${newId}, value from custom_values
          where tenant_id = ${auth.tenantId} and morphable_type = ${quotes.morphType} and morphable_id = ${id}`.execute(
            trx,
          );
      });
      reply.status(201);
      return findRecord(deps, auth, quotes, Number(copy.id));
    },
  );
}
