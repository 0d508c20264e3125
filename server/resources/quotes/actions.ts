/**
 * SPEC 7 quote calls beyond CRUD: send (mail the client a link), accept (with a signature), decline,
 * duplicate and download as PDF.
 *
 * Duplicating copies the quote's own fields, custom values and lines into a new concept quote (status 1, no
 * sending, signature or decision), in one transaction; the answer is the new quote (201).
 *
 * Sending is for operators only (no portal action): a concept or already sent quote becomes sent, and its
 * client gets an e-mail with a link that opens exactly this quote without a login (a record token, valid
 * QUOTE_LINK_DAYS days). The answer is 200 `{message, recipient}` once the quote is sent; when the mail
 * server refused the mail it is still 200 (the quote is sent, the outbox tries the mail again) with
 * `mail_error` saying so, as a new message's answer does: the operator must not send it again.
 *
 * Accepting and declining are allowed only in status 2 (sent), by whoever may see the quote and holds the
 * permission: a client of the quote's company, the holder of the quote's link, or an operator. The status
 * is checked and changed in one transaction under a row lock, so of two racing calls exactly one wins.
 *
 * A quote past its validity date (common/quote-validity.ts) can be neither accepted nor sent, by anyone and
 * through any route, the link's included: 422 until an operator extends it by changing `valid_until` (an
 * update, under the same row lock as the accept). Declining it is still allowed.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { notFound, ValidationError } from '../../http/errors.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize, parseId } from '../plugin.ts';
import { findRecord, storeRecord, writableFields, type Deps } from '../repository.ts';
import { quotePdf } from '../../pdf/quote.ts';
import { attachment, pdfFileName } from '../../pdf/layout.ts';
import { createRecordToken } from '../../auth/record-tokens.ts';
import { linkOrigin } from '../../mail/link-origin.ts';
import { enqueueMail } from '../../mail/outbox.ts';
import { quoteMail } from '../../mail/quote-mail.ts';
import { actionRoute, BINARY, closedBody, OPERATORS_ONLY, recordRef } from '../../docs/action-schema.ts';
import { serverText } from '../../../common/server-texts.ts';
import { quoteExpired } from '../../../common/quote-validity.ts';
import {
  lockSentQuote,
  parseAcceptance,
  QUOTE_EXPIRED,
  QUOTE_EXPIRED_NOT_SENDABLE,
  refuseWhenExpired,
  SENT,
} from './decision.ts';

const CONCEPT = 1;
const ACCEPTED = 3;
const DECLINED = 4;

/**
 * How long the link in a quote e-mail opens the quote. Long enough to decide on a quote; sending it again
 * mails a fresh link (earlier links stay valid until they expire).
 */
export const QUOTE_LINK_DAYS = 30;
/** The answer's `mail_error` when the first attempt at the quote's mail failed: the outbox goes on trying. */
export const QUOTE_MAIL_RETRYING = serverText('quote_mail_retrying');
/** The answer's `mail_error` when that attempt was the last one allowed (MAIL_MAX_ATTEMPTS 1). */
export const QUOTE_MAIL_GIVEN_UP = serverText('quote_mail_given_up');
export const NO_RECIPIENT = serverText('quote_no_recipient');

type IdParams = { Params: { id: string } };

/** The quote's client, else its deal's client: the first with an e-mail address (archived ones excluded). */
async function recipientOf(
  trx: Db,
  tenantId: number,
  quote: { client_id: number | null; deal_id: number | null },
): Promise<{ email: string; name: string } | undefined> {
  const dealClient = quote.deal_id
    ? (
        await trx
          .selectFrom('deals')
          .select('client_id')
          .where('id', '=', quote.deal_id)
          .where('tenant_id', '=', tenantId)
          .executeTakeFirst()
      )?.client_id
    : null;
  for (const clientId of [quote.client_id, dealClient]) {
    if (!clientId) continue;
    const user = await trx
      .selectFrom('users')
      .select(['email', 'full_name'])
      .where('id', '=', clientId)
      .where('tenant_id', '=', tenantId)
      .where('archived_at', 'is', null)
      .executeTakeFirst();
    if (user?.email) return { email: user.email, name: user.full_name ?? user.email };
  }
  return undefined;
}

export const quoteActions: ActionPlugin = async (app, { db, registry, config }) => {
  const quotes = registry.require('quotes');
  const deps: Deps = { db, registry, validation: new BodyValidation() };
  const quote = recordRef(registry, quotes);

  app.post<IdParams>(
    '/api/quotes/:id/send',
    actionRoute({
      tag: quotes.name,
      operationId: 'quotesSend',
      summary: "Send a concept or sent quote to its client: status 2 and an e-mail with the quote's link",
      description:
        "The quote is sent (status 2); its client (else its deal's client) is mailed, in Dutch, a link " +
        '`<public origin>/app/quotes/{id}?token=…` whose token (header `X-Quote-Token`) opens exactly this ' +
        'quote for 30 days. Permission `tenant.quotes.send`; operators only. An accepted or rejected quote ' +
        'answers 422, and so does a quote past its validity date (`valid_until` before today in Amsterdam) ' +
        'until its validity is extended. When the mail server refused the e-mail the answer is still 200 (the quote is sent) ' +
        'with `mail_error`: the outbox tries the mail again by itself, so do not send the quote again; a ' +
        'mail given up for good is listed at /mail-outbox, where it can be tried again.',
      answers: {
        200: {
          description: 'Sent (or marked sent, with `mail_error`).',
          schema: {
            type: 'object',
            required: ['message', 'recipient'],
            properties: {
              message: { type: 'string' },
              recipient: { type: 'string', description: 'The e-mail address the link went to.' },
              mail_error: {
                type: 'string',
                description: 'The mail is not sent yet; the outbox tries again.',
              },
            },
            additionalProperties: false,
          },
        },
      },
    }),
    async (request) => {
      const auth = await authorize(request, quotes, 'send');
      const id = parseId(request.params.id);
      await findRecord(deps, auth, quotes, id);
      // Before the quote is marked sent: a host links may not point at sends nothing and changes nothing.
      const origin = linkOrigin(request, config);
      const sent = await db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('quotes')
          .select(['name', 'status_id', 'client_id', 'deal_id', 'valid_until'])
          .where('id', '=', id)
          .where('tenant_id', '=', auth.tenantId)
          .forUpdate()
          .executeTakeFirst();
        if (!row) throw notFound();
        const status = Number(row.status_id);
        if (status !== CONCEPT && status !== SENT) {
          const message =
            status === ACCEPTED
              ? serverText('quote_accepted_not_sendable')
              : serverText('quote_rejected_not_sendable');
          throw new ValidationError({ status_id: [message] }, message);
        }
        // A link to a quote the client can no longer accept helps nobody: extend it first.
        refuseWhenExpired(row.valid_until, QUOTE_EXPIRED_NOT_SENDABLE);
        const recipient = await recipientOf(trx, auth.tenantId, {
          client_id: row.client_id === null ? null : Number(row.client_id),
          deal_id: row.deal_id === null ? null : Number(row.deal_id),
        });
        if (!recipient) throw new ValidationError({ client_id: [NO_RECIPIENT] }, NO_RECIPIENT);
        await trx
          .updateTable('quotes')
          .set({ status_id: SENT, sent_at: sql`now()`, updated_at: sql`now()` })
          .where('id', '=', id)
          .where('tenant_id', '=', auth.tenantId)
          .execute();
        const token = await createRecordToken(trx, auth.tenantId, 'quotes', id, QUOTE_LINK_DAYS);
        // The mail is queued with the sent status and the link: all three or none.
        const link = `${origin}/app/quotes/${id}?token=${encodeURIComponent(token)}`;
        const mail = quoteMail({
          to: recipient.email,
          name: recipient.name,
          tenantName: request.tenant.name,
          quoteName: row.name,
          link,
          days: QUOTE_LINK_DAYS,
        });
        return { recipient, outboxId: await enqueueMail(trx, mail, { tenantId: auth.tenantId }) };
      });
      // Sent after the commit (on PGlite a transaction holds the only connection), at once so the answer
      // can tell; a refused mail stays queued and is tried again, so sending the quote again would mail twice.
      const outcome = await app.outbox.sendNow(sent.outboxId);
      const recipient = sent.recipient.email;
      if (outcome === 'retrying' || outcome === 'failed') {
        request.log.warn(
          { quoteId: id, outbox: sent.outboxId },
          'quote send: the e-mail could not be sent yet',
        );
        return {
          message: `The quote has been marked as sent to ${recipient}.`,
          recipient,
          mail_error: outcome === 'failed' ? QUOTE_MAIL_GIVEN_UP : QUOTE_MAIL_RETRYING,
        };
      }
      return { message: `The quote has been sent to ${recipient}.`, recipient };
    },
  );

  app.post<IdParams>(
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
      body: closedBody(
        {
          name: { type: 'string', minLength: 1, maxLength: 255 },
          note: { type: 'string', maxLength: 2000 },
          signature: { type: 'string', description: 'A PNG data URL (data:image/png;base64,…).' },
        },
        ['name', 'signature'],
      ),
      answers: { 200: { description: 'The quote, now accepted (status 3).', schema: quote } },
    }),
    async (request) => {
      const auth = await authorize(request, quotes, 'accept');
      const id = parseId(request.params.id);
      await findRecord(deps, auth, quotes, id);
      const acceptance = parseAcceptance(request.body);
      await db.transaction().execute(async (trx) => {
        const { validUntil } = await lockSentQuote(trx, auth, id, serverText('quote_not_acceptable'));
        refuseWhenExpired(validUntil, QUOTE_EXPIRED);
        const { acceptedAt } = await trx
          .updateTable('quotes')
          .set({
            status_id: ACCEPTED,
            signed_name: acceptance.name,
            signed_note: acceptance.note,
            signature: acceptance.signature,
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
            name: acceptance.name,
            note: acceptance.note,
            signature: acceptance.signature,
            accepted_at: acceptedAt!, // set to now() just above
            ip: request.ip ?? null,
            user_id: auth.userId,
            via_token: auth.kind === 'record-token',
          })
          .execute();
      });
      return findRecord(deps, auth, quotes, id);
    },
  );

  app.post<IdParams>(
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
      const id = parseId(request.params.id);
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

  app.post<IdParams>(
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
      const id = parseId(request.params.id);
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

  app.post<IdParams>(
    '/api/quotes/:id/download',
    actionRoute({
      tag: quotes.name,
      operationId: 'quotesDownload',
      summary: 'The quote as a PDF',
      description: 'Saved as `{name}.pdf`; for whoever may see the quote and holds `download`.',
      answers: { 200: { description: 'The PDF.', content: { 'application/pdf': BINARY } } },
    }),
    async (request, reply) => {
      const auth = await authorize(request, quotes, 'download');
      const id = parseId(request.params.id);
      await findRecord(deps, auth, quotes, id);
      const quote = await db
        .selectFrom('quotes as q')
        .leftJoin('companies as c', 'c.id', 'q.company_id')
        .leftJoin('users as u', 'u.id', 'q.client_id')
        .select([
          'q.name',
          'q.description',
          'q.status_id',
          'q.total',
          'q.valid_until',
          'q.sent_at',
          'q.created_at',
          'q.signed_name',
          'q.signed_note',
          'q.signature',
          'q.accepted_at',
          'q.declined_at',
          'c.name as company',
          'u.full_name as client',
        ])
        .where('q.id', '=', id)
        .where('q.tenant_id', '=', auth.tenantId)
        .executeTakeFirstOrThrow();
      const lines = await db
        .selectFrom('quote_lines')
        .select(['description', 'quantity', 'price', 'total'])
        .where('quote_id', '=', id)
        .where('tenant_id', '=', auth.tenantId)
        .orderBy('order')
        .orderBy('id')
        .execute();
      const accepted = Number(quote.status_id) === ACCEPTED && quote.accepted_at;
      const pdf = await quotePdf({
        tenantName: request.tenant.name,
        name: quote.name,
        description: quote.description,
        statusId: Number(quote.status_id),
        company: quote.company,
        client: quote.client,
        createdAt: quote.created_at,
        sentAt: quote.sent_at,
        validUntil: quote.valid_until,
        expired: quoteExpired({ status_id: quote.status_id, valid_until: quote.valid_until }),
        total: quote.total,
        lines,
        acceptance: accepted
          ? {
              name: quote.signed_name ?? '',
              note: quote.signed_note,
              signature: quote.signature,
              acceptedAt: quote.accepted_at!,
            }
          : null,
        declinedAt: quote.declined_at,
      });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachment(pdfFileName(quote.name, `quote-${id}`), quote.name))
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );
};
