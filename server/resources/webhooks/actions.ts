/**
 * The webhooks' own calls (issue 38, item 4), and the deliverer each instance runs (worker.ts):
 *
 * - `POST /api/webhooks`: the generic create, plus a signing secret made by the server, stored encrypted
 *   and answered this once (`secret`);
 * - `POST /api/webhooks/{id}/rotate`: a new secret, answered once; the old one stops signing at once;
 * - `POST /api/webhooks/{id}/test`: a `ping` event queued for this webhook and tried at once, answered
 *   with the delivery as the log holds it.
 *
 * Creates, updates and deletes are audited by the schema's x-audit (the secret is no field, so never in
 * an entry); a rotation is audited here as an update whose secret changed, its value hidden.
 */
import { sql } from 'kysely';
import { audit, HIDDEN } from '../../audit/audit.ts';
import { actionRoute } from '../../docs/action-schema.ts';
import { checkedStoreSchema } from '../../docs/resource-schemas.ts';
import { validating, validInput, type RecordParams } from '../../http/route-validation.ts';
import { encryptPassword } from '../../mail/inbound/secret.ts';
import { BodyValidation, CheckedBySchema } from '../../schema/validate.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { findRecord, storeRecord, type Deps } from '../repository.ts';
import { onQueued } from './enqueue.ts';
import { useAllowPrivate } from './hooks.ts';
import { newSecret } from './signing.ts';
import { WebhookWorker } from './worker.ts';

const DELIVERY = {
  type: 'object',
  required: ['id', 'status', 'attempts'],
  properties: {
    id: { type: 'integer' },
    status: { type: 'string', enum: ['queued', 'sending', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    status_code: { type: ['integer', 'null'] },
    duration_ms: { type: ['integer', 'null'] },
    error: { type: ['string', 'null'] },
  },
  additionalProperties: false,
};

export const webhookActions: ActionPlugin = async (app, { db, registry, config }) => {
  const webhooks = registry.get('webhooks');
  if (!webhooks) return;
  const deps: Deps = { db, registry, validation: new BodyValidation() };
  // The create's body is its route schema's to check (validInput), in the same words.
  const bySchema: Deps = { ...deps, validation: new CheckedBySchema() };
  useAllowPrivate(config.webhooks.allowPrivate);

  const worker = new WebhookWorker(db, config.webhooks, app.log);
  const stopListening = onQueued(() => worker.soon());
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => {
    stopListening();
    await worker.stop();
  });

  // The generic create's schema, its answer with the secret beside the record's fields.
  const storeSchema = checkedStoreSchema(registry, webhooks) as Record<string, any>;
  storeSchema.response = {
    ...storeSchema.response,
    201: {
      description:
        'The created webhook, as `GET /api/webhooks/{id}` answers it, and `secret`: its signing secret, ' +
        'shown this once (stored encrypted; `rotate` makes a new one).',
      type: 'object',
      required: ['id', 'secret'],
      properties: { id: { type: 'integer' }, secret: { type: 'string' } },
      additionalProperties: true,
    },
  };
  app.post('/api/webhooks', validating(storeSchema), async (request, reply) => {
    const auth = await authorize(request, webhooks, 'store');
    validInput(request);
    const secret = newSecret();
    // by hand (hooks.ts): where the URL may point, which depends on the installation's setting and is
    // checked on every update as well.
    const row = await storeRecord(bySchema, auth, webhooks, request.body, async (id, trx) => {
      await trx
        .updateTable('webhooks')
        .set({ secret_encrypted: await encryptPassword(trx, auth.tenantId, secret) })
        .where('id', '=', id)
        .execute();
    });
    reply.status(201);
    return { ...row, secret };
  });

  app.post<RecordParams>(
    '/api/webhooks/:id/rotate',
    actionRoute({
      tag: webhooks.name,
      operationId: 'webhooksRotate',
      summary: "Replace a webhook's signing secret",
      description:
        'The new secret signs every delivery from now on, retries of earlier events too; it is answered ' +
        'this once. Audited (the secret hidden). Operators with `tenant.webhooks.rotate`; clients never.',
      answers: {
        200: {
          description: 'The new secret.',
          schema: {
            type: 'object',
            required: ['id', 'secret'],
            properties: { id: { type: 'integer' }, secret: { type: 'string' } },
            additionalProperties: false,
          },
        },
      },
    }),
    async (request) => {
      const auth = await authorize(request, webhooks, 'rotate');
      validInput(request);
      const { id } = request.params;
      await findRecord(deps, auth, webhooks, id);
      const secret = newSecret();
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('webhooks')
          .set({
            secret_encrypted: await encryptPassword(trx, auth.tenantId, secret),
            updated_at: sql`now()`,
          })
          .where('tenant_id', '=', auth.tenantId)
          .where('id', '=', id)
          .execute();
        await audit(trx, auth, {
          action: 'record.update',
          resource: webhooks.name,
          recordId: id,
          changes: { secret: [HIDDEN, HIDDEN] },
        });
      });
      return { id, secret };
    },
  );

  app.post<RecordParams>(
    '/api/webhooks/:id/test',
    actionRoute({
      tag: webhooks.name,
      operationId: 'webhooksTest',
      summary: 'Send a test event (`ping`) to a webhook',
      description:
        'Queues a `ping` event for this webhook, active or not, and tries it at once; the answer is the ' +
        'delivery as the log (`webhook-deliveries`) holds it. A failed ping is retried as any delivery, ' +
        "and counts towards the webhook's failures. Operators with `tenant.webhooks.test`; clients never.",
      answers: { 200: { description: 'The delivery after its first attempt.', schema: DELIVERY } },
    }),
    async (request) => {
      const auth = await authorize(request, webhooks, 'test');
      validInput(request);
      const { id } = request.params;
      await findRecord(deps, auth, webhooks, id);
      const deliveryId = await worker.ping(auth.tenantId, id);
      const row = await db
        .selectFrom('webhook_deliveries')
        .select(['id', 'status', 'attempts', 'status_code', 'duration_ms', 'error'])
        .where('tenant_id', '=', auth.tenantId)
        .where('id', '=', deliveryId)
        .executeTakeFirstOrThrow();
      return { ...row, id: Number(row.id) };
    },
  );
};
