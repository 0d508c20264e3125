/**
 * The OpenAPI text of the record calls of SPEC 7 on quotes, contracts and invoices: send, accept,
 * decline and download a quote, buy a prepaid card, download an invoice. The routes (server/resources/
 * <name>/actions.ts) carry these as their schemas (route-schema.ts).
 */
import { ERRORS, type Schema, ref } from '../refs.ts';

type Operation = Schema;

/** Path items of these calls. */
export const RECORD_CALLS: Record<string, Record<string, Schema>> = {
  '/mail-outbox/{id}/retry': {
    post: call(
      'mail-outbox',
      'mailOutboxRetry',
      'Try a mail that was not sent again: due now, its attempts counted from zero',
      undefined,
      undefined,
      [],
      'The mail as GET /mail-outbox/{id} gives it, after one attempt at once, with `mail_error` when ' +
        'that attempt failed too (the outbox goes on trying). For operators with ' +
        'tenant.mail-outbox.retry; clients never. 404 for a mail of another tenant or one already ' +
        'sent; 422 while another instance is sending it, or when it was given up before bodies were ' +
        'kept (it cannot be sent again).',
    ),
  },
  '/quotes/{id}/send': {
    post: call(
      'quotes',
      'quotesSend',
      "Send a concept or sent quote to its client: status 2 and an e-mail with the quote's link",
      undefined,
      undefined,
      [],
      "{message, recipient, mail_error?}. The quote is sent (status 2); its client (else its deal's " +
        'client) is mailed, in Dutch, a link `<public origin>/app/quotes/{id}?token=…` whose token ' +
        '(header `X-Quote-Token`) opens exactly this quote for 30 days. Operators only ' +
        '(tenant.quotes.send). An accepted or rejected quote answers 422. When the mail server refused ' +
        'the e-mail the answer is still 200 (the quote is sent) with `mail_error`: the outbox tries the ' +
        'mail again by itself, so do not send the quote again; a mail given up for good is listed at ' +
        '/mail-outbox, where it can be tried again.',
    ),
  },
  '/quotes/{id}/accept': {
    post: call(
      'quotes',
      'quotesAccept',
      'Accept a sent quote (status 2) with a signature',
      undefined,
      {
        name: { type: 'string', minLength: 1, maxLength: 255 },
        note: { type: 'string', maxLength: 2000 },
        signature: { type: 'string', description: 'A PNG data URL (data:image/png;base64,…).' },
      },
      ['name', 'signature'],
      'The quote, now accepted (status 3). Two accepts racing: one wins, the other gets 422.',
    ),
  },
  '/quotes/{id}/decline': {
    post: call(
      'quotes',
      'quotesDecline',
      'Decline a sent quote (status 4)',
      undefined,
      undefined,
      [],
      'The quote, now declined.',
    ),
  },
  '/quotes/{id}/download': {
    post: call(
      'quotes',
      'quotesDownload',
      'The quote as a PDF',
      undefined,
      undefined,
      [],
      'application/pdf, saved as {name}.pdf.',
    ),
  },
  '/contracts/{id}/buy': {
    post: call(
      'contracts',
      'contractsBuy',
      'Buy a prepaid card on a prepaid contract (period none)',
      undefined,
      {
        prepaid_card_id: { type: 'integer' },
      },
      ['prepaid_card_id'],
      "The contract with the card's hours added.",
    ),
  },
  '/invoices/{id}/download': {
    post: call(
      'invoices',
      'invoicesDownload',
      'The invoice as a PDF',
      undefined,
      undefined,
      [],
      'application/pdf.',
    ),
  },
  '/invoicing/{id}': {
    get: call(
      'invoices',
      'invoicingFile',
      'The invoice with its PDF as {Base64, Filename}',
      undefined,
      undefined,
      [],
      'The invoice, Base64 and Filename.',
    ),
  },
};

/** A call of SPEC 7 beyond the generic routes: its body (if any) and a described answer. */
function call(
  tag: string,
  operationId: string,
  summary: string,
  security: Schema[] | undefined,
  body: Record<string, Schema> | undefined,
  required: string[],
  answer: string,
): Operation {
  const withId = !['auth'].includes(tag);
  return {
    tags: [tag],
    operationId,
    summary,
    ...(security && { security }),
    ...(withId && { parameters: [ref('parameters', 'Id')] }),
    ...(body && {
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { type: 'object', required, properties: body, additionalProperties: false },
          },
        },
      },
    }),
    responses: { 200: { description: answer }, ...ERRORS },
  } as Operation;
}
