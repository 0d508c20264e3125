/**
 * The OpenAPI text of the record calls of SPEC 7 on quotes, contracts and invoices: send, accept,
 * decline and download a quote, buy a prepaid card, download an invoice. The routes (server/resources/
 * <name>/actions.ts) carry these as their schemas (route-schema.ts).
 */
import { ERRORS, type Schema, ref } from '../refs.ts';

type Operation = Schema;

/** Path items of these calls. */
export const RECORD_CALLS: Record<string, Record<string, Schema>> = {
  '/quotes/{id}/send': {
    post: call(
      'quotes',
      'quotesSend',
      "Send a concept or sent quote to its client: status 2 and an e-mail with the quote's link",
      undefined,
      undefined,
      [],
      "{message}. The quote is sent (status 2); its client (else its deal's client) is mailed, in Dutch, " +
        'a link `<public origin>/app/quotes/{id}?token=…` whose token (header `X-Quote-Token`) opens ' +
        'exactly this quote for 30 days. Operators only (tenant.quotes.send). An accepted or rejected ' +
        'quote answers 422; 502 when the e-mail could not be sent (the quote is sent; send it again).',
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
