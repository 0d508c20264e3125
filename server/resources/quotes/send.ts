/**
 * Sending a quote (operators only): a concept or already sent quote becomes sent, and its client gets an
 * e-mail with a link that opens exactly this quote without a login. See ./actions.ts.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { notFound, ValidationError } from '../../http/errors.ts';
import { authorize } from '../plugin.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { findRecord } from '../repository.ts';
import { createRecordToken } from '../../auth/record-tokens.ts';
import { linkOrigin } from '../../mail/link-origin.ts';
import { enqueueMail } from '../../mail/enqueue.ts';
import { quoteMail } from '../../mail/quote-mail.ts';
import { actionRoute } from '../../docs/action-schema.ts';
import { serverText } from '../../../common/server-texts.ts';
import type { QuoteCalls } from './calls.ts';
import { ACCEPTED, CONCEPT, QUOTE_EXPIRED_NOT_SENDABLE, refuseWhenExpired, SENT } from './decision.ts';

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

export function sendRoute({ app, db, config, deps, quotes }: QuoteCalls): void {
  app.post<RecordParams>(
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
      validInput(request);
      const { id } = request.params;
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
}
