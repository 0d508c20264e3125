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
 *
 * Each call is its own module: send.ts, decide.ts (accept and decline), duplicate.ts, download.ts.
 */
import type { ActionPlugin } from '../action-contract.ts';
import { quoteCalls } from './calls.ts';
import { decisionRoutes } from './decide.ts';
import { downloadRoute } from './download.ts';
import { duplicateRoute } from './duplicate.ts';
import { sendRoute } from './send.ts';

export const quoteActions: ActionPlugin = async (app, options) => {
  const calls = quoteCalls(app, options);
  sendRoute(calls);
  decisionRoutes(calls);
  duplicateRoute(calls);
  downloadRoute(calls);
};
