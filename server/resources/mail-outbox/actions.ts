/**
 * `POST /api/mail-outbox/{id}/retry` (issue 15, item 4): an operator's "try again" on a mail of the
 * tenant's outbox that was not sent (schemas/mail-outbox.json lists them). The mail is queued again,
 * due now with its attempts counted from zero (a message's "given up" warning goes), and tried once at
 * once, so the answer can say how that went:
 *
 * - `{status: 'sent', message}`: it went;
 * - `{status: 'queued' | 'failed', message, mail_error}`: refused again; the outbox goes on trying
 *   (`queued`), or, with MAIL_MAX_ATTEMPTS 1, gave it up again (`failed`);
 * - `{status: 'queued' | 'sending', message}`: another instance took it first and is sending it.
 *
 * 404 for a mail the caller's tenant does not have or that is sent; 422 while a sender holds it, or
 * when it was given up before bodies were kept (nothing left to send).
 */
import { notFound, ValidationError } from '../../http/errors.ts';
import { RequeueRefused } from '../../mail/outbox.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { findRecord, type Deps } from '../repository.ts';
import { actionRoute } from '../../docs/action-schema.ts';
import { serverText } from '../../../common/server-texts.ts';

/** The answer's `mail_error` when the attempt at once failed again. */
export const RETRY_FAILED = serverText('mail_retry_failed');
export const RETRY_SENDING = serverText('mail_retry_sending');
export const RETRY_NO_BODY = serverText('mail_retry_no_body');

export const mailOutboxActions: ActionPlugin = async (app, { db, registry }) => {
  const outbox = registry.get('mail-outbox');
  if (!outbox) return;
  const deps: Deps = { db, registry, validation: new BodyValidation() };

  app.post<RecordParams>(
    '/api/mail-outbox/:id/retry',
    actionRoute({
      tag: outbox.name,
      operationId: 'mailOutboxRetry',
      summary: 'Try a mail that was not sent again: due now, its attempts counted from zero',
      description:
        'Tried once at once; the answer says how that went. Operators with `tenant.mail-outbox.retry`; ' +
        'clients never. 404 for a mail of another tenant or one already sent; 422 while another instance ' +
        'is sending it, or when it was given up before bodies were kept (it cannot be sent again).',
      answers: {
        200: {
          description:
            '`sent`; or refused again, with `mail_error` (`queued`: the outbox goes on trying, `failed`: ' +
            'given up again); or taken by another instance, which is sending it.',
          schema: {
            type: 'object',
            required: ['id', 'status', 'message'],
            properties: {
              id: { type: 'integer' },
              status: { type: 'string', enum: ['queued', 'sending', 'sent', 'failed'] },
              message: { type: 'string' },
              mail_error: { type: 'string' },
            },
            additionalProperties: false,
          },
        },
      },
    }),
    async (request) => {
      const auth = await authorize(request, outbox, 'retry');
      validInput(request);
      const { id } = request.params;
      // The tenant's own mail not sent yet, as the list shows it: 404 otherwise.
      await findRecord(deps, auth, outbox, id);
      try {
        // Sent (by another instance) since it was read: nothing to try again.
        if (!(await app.outbox.requeue(auth.tenantId, id))) throw notFound();
      } catch (error) {
        if (!(error instanceof RequeueRefused)) throw error;
        const message = error.reason === 'sending' ? RETRY_SENDING : RETRY_NO_BODY;
        throw new ValidationError({ status: [message] }, message);
      }
      const outcome = await app.outbox.sendNow(id);
      if (outcome === 'sent') return { id, status: 'sent', message: 'The mail has been sent.' };
      const row = await db
        .selectFrom('mail_outbox')
        .select('status')
        .where('tenant_id', '=', auth.tenantId)
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const status = String(row.status);
      if (outcome === 'elsewhere')
        return { id, status, message: 'The mail has been queued again and is being sent.' };
      request.log.warn({ outbox: id }, 'mail outbox: an operator tried a mail again, and it failed again');
      return {
        id,
        status,
        message:
          status === 'failed'
            ? 'The mail could not be sent and has been given up again.'
            : 'The mail could not be sent yet. It is tried again automatically.',
        mail_error: RETRY_FAILED,
      };
    },
  );
};
