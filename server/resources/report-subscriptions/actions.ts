/**
 * An operator's report subscriptions (issue 36, item 4), for operators who may read reports
 * (`tenant.reports.index`; everyone else 403). Each call reads and writes only the caller's own
 * subscriptions (./store.ts), so they are routes of their own rather than the generic ones (which scope
 * by tenant, not by user): another operator's subscription is a 404.
 *
 * - `GET /api/report-subscriptions`, `POST /api/report-subscriptions`;
 * - `GET|PUT|DELETE /api/report-subscriptions/{id}` (PUT: pause or resume, or the frequency or delivery).
 *
 * The settings are the reports page's, checked by the route's schema with the page's own names
 * (common/reports.ts, common/time-report.ts): an unknown grouping, key or filter is a 422.
 *
 * Also the pass that mails them (./deliver.ts), on every instance, every DEADLINE_CHECK_MS as the
 * deadline and SLA checks (server/live/plugin.ts), with the outbox and the file store it needs.
 */
import type { FastifyRequest } from 'fastify';
import { notFound, ValidationError } from '../../http/errors.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { actionRoute, closedBody, OPERATORS_ONLY } from '../../docs/action-schema.ts';
import type { Schema } from '../../docs/refs.ts';
import { IDS } from '../../reports/route-parts.ts';
import { reportReader } from '../../reports/route-parts.ts';
import { fileStoreFor } from '../../files/store.ts';
import { WakeLoop } from '../../system/wake-loop.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { serverText } from '../../../common/server-texts.ts';
import { REPORT_GROUPS, REPORTS_PERMISSION } from '../../../common/reports.ts';
import {
  DELIVERIES,
  FREQUENCIES,
  MAX_SUBSCRIPTIONS,
  SUBSCRIBED_REPORTS,
  SUBSCRIPTION_BY,
  SUBSCRIPTION_FILTERS,
  type SubscribedReport,
} from '../../../common/report-subscriptions.ts';
import {
  countSubscriptions,
  destroySubscription,
  findSubscription,
  listSubscriptions,
  storeSubscription,
  updateSubscription,
  type NewSubscription,
  type Owner,
  type SubscriptionChange,
} from './store.ts';
import { REPORT_MAIL_SOURCE, sendDueReports } from './deliver.ts';

const TAG = 'report-subscriptions';
const ACCESS = `Permission \`${REPORTS_PERMISSION}\`; the caller's own subscriptions only (another's: 404). ${OPERATORS_ONLY}`;

const REPORT: Schema = {
  type: 'string',
  enum: [...SUBSCRIBED_REPORTS],
  description: 'The reports page\u2019s tab: `tickets` (the service report) or `time` (time logged).',
};
const FREQUENCY: Schema = {
  type: 'string',
  enum: [...FREQUENCIES],
  description:
    '`weekly`: the previous week (Monday to Sunday), mailed on Monday morning; `monthly`: the previous month, on the 1st. In the desk\u2019s zone.',
};
const DELIVERY: Schema = {
  type: 'string',
  enum: [...DELIVERIES],
  description:
    '`xlsx`: the report\u2019s files attached (per period and per `by`); `link`: a link to the reports page.',
};

/** The settings' fields as a report takes them: its filters and breakdown keys, nothing else. */
function settingsOf(report: SubscribedReport): Schema {
  return {
    properties: {
      by: { enum: [...SUBSCRIPTION_BY[report]] },
      filters: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(SUBSCRIPTION_FILTERS[report].map((key) => [key, IDS])),
      },
    },
  };
}

const SETTINGS: Record<string, Schema> = {
  group: { type: 'string', enum: [...REPORT_GROUPS], description: 'Per day, week or month.' },
  line: { type: 'integer', enum: [1, 2], description: 'Of first (1) or second (2) line operators only.' },
  by: {
    type: 'string',
    description: `The breakdown\u2019s key: for \`tickets\` one of ${SUBSCRIPTION_BY.tickets.join(', ')}; for \`time\` one of ${SUBSCRIPTION_BY.time.join(', ')}.`,
  },
  filters: {
    type: 'object',
    description: `Any of these ids per key (\`none\`: the rows without one); for \`tickets\` the keys ${SUBSCRIPTION_FILTERS.tickets.join(', ')}, for \`time\` ${SUBSCRIPTION_FILTERS.time.join(', ')}.`,
  },
};

const NEW: Schema = {
  ...closedBody({ report: REPORT, frequency: FREQUENCY, delivery: DELIVERY, ...SETTINGS }, [
    'report',
    'frequency',
    'delivery',
    'group',
    'by',
  ]),
  // The keys a report takes are its own (server/schema/input-errors.ts names the field, not the `if`).
  if: { properties: { report: { const: 'time' } }, required: ['report'] },
  then: settingsOf('time'),
  else: settingsOf('tickets'),
};

const CHANGE: Schema = {
  ...closedBody({
    paused: { type: 'boolean', description: 'Paused: no mail until resumed (then from the next period).' },
    frequency: FREQUENCY,
    delivery: DELIVERY,
  }),
  minProperties: 1,
};

const SUBSCRIPTION: Schema = {
  type: 'object',
  required: ['id', 'report', 'frequency', 'delivery', 'group', 'by', 'filters', 'paused', 'created_at'],
  properties: {
    id: { type: 'integer' },
    report: REPORT,
    frequency: FREQUENCY,
    delivery: DELIVERY,
    group: SETTINGS.group!,
    line: SETTINGS.line!,
    by: { type: 'string' },
    filters: {
      type: 'object',
      additionalProperties: { type: 'array', items: { anyOf: [{ type: 'integer' }, { const: 'none' }] } },
    },
    paused: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
  },
  additionalProperties: false,
};

async function owner(request: FastifyRequest): Promise<Owner> {
  const auth = await reportReader(request);
  // An operator always has a user; the desk's own context never reaches a route.
  return { tenantId: auth.tenantId, userId: auth.userId! };
}

export const reportSubscriptionActions: ActionPlugin = async (app, { db, config }) => {
  const store = fileStoreFor(config, db);

  // A sent mail's files are not needed any more: the file sweep removes them (server/files/sweep.ts).
  app.outbox.handle(REPORT_MAIL_SOURCE, {
    async sent(trx, row) {
      const { files } = (row.context ?? {}) as { files?: string[] };
      if (!files?.length) return;
      await trx
        .insertInto('file_removals')
        .values(files.map((path) => ({ path })))
        .onConflict((oc) => oc.column('path').doNothing())
        .execute();
    },
  });

  const loop = new WakeLoop(
    async () => {
      const sent = await sendDueReports(
        {
          db,
          store,
          origin: config.publicUrl ?? '',
          failed: (error, id) => app.log.error({ err: error, subscription: id }, 'scheduled report not sent'),
        },
        Date.now(),
        () => loop.isStopped,
      );
      if (sent > 0) app.outbox.wake();
    },
    config.deadlineCheckMs,
    (error) => app.log.error({ err: error }, 'scheduled reports: lost its database'),
  );
  app.addHook('onReady', async () => {
    if (config.deadlineCheckMs > 0) loop.start();
  });
  app.addHook('onClose', async () => loop.stop());

  app.get(
    '/api/report-subscriptions',
    actionRoute({
      tag: TAG,
      operationId: 'reportSubscriptionsList',
      params: false,
      summary: 'The caller\u2019s report subscriptions',
      description: ACCESS,
      answers: {
        200: {
          description: 'Every subscription of the caller, oldest first.',
          schema: {
            type: 'object',
            required: ['data'],
            properties: { data: { type: 'array', items: SUBSCRIPTION } },
            additionalProperties: false,
          },
        },
      },
      errors: [401, 403, 503],
    }),
    async (request) => ({ data: await listSubscriptions(db, await owner(request)) }),
  );

  app.post(
    '/api/report-subscriptions',
    actionRoute({
      tag: TAG,
      operationId: 'reportSubscriptionsStore',
      params: false,
      summary: 'Subscribe to a report by mail, weekly or monthly',
      description: `A report of the reports page with its settings (never its dates): each week or month the caller is mailed the period just ended, as XLSX files or a link. At most ${MAX_SUBSCRIPTIONS} per operator. ${ACCESS}`,
      body: NEW,
      answers: { 201: { description: 'The subscription.', schema: SUBSCRIPTION } },
      errors: [401, 403, 422, 503],
    }),
    async (request, reply) => {
      const caller = await owner(request);
      validInput(request);
      if ((await countSubscriptions(db, caller)) >= MAX_SUBSCRIPTIONS)
        throw new ValidationError({
          report: [serverText('report_subscriptions_full', { max: MAX_SUBSCRIPTIONS })],
        });
      reply.status(201);
      return storeSubscription(db, caller, request.body as NewSubscription);
    },
  );

  app.get<RecordParams>(
    '/api/report-subscriptions/:id',
    actionRoute({
      tag: TAG,
      operationId: 'reportSubscriptionsShow',
      summary: 'One of the caller\u2019s report subscriptions',
      description: ACCESS,
      answers: { 200: { description: 'The subscription.', schema: SUBSCRIPTION } },
    }),
    async (request) => {
      const caller = await owner(request);
      validInput(request);
      const found = await findSubscription(db, caller, request.params.id);
      if (!found) throw notFound();
      return found;
    },
  );

  app.put<RecordParams>(
    '/api/report-subscriptions/:id',
    actionRoute({
      tag: TAG,
      operationId: 'reportSubscriptionsUpdate',
      summary: 'Pause or resume a report subscription, or change how often or how it is sent',
      description: `Resumed, or its frequency changed, it counts from then: the periods that ended meanwhile are not sent. ${ACCESS}`,
      body: CHANGE,
      answers: { 200: { description: 'The subscription.', schema: SUBSCRIPTION } },
    }),
    async (request) => {
      const caller = await owner(request);
      validInput(request, 'params');
      if (!(await findSubscription(db, caller, request.params.id))) throw notFound();
      validInput(request);
      const changed = await updateSubscription(
        db,
        caller,
        request.params.id,
        request.body as SubscriptionChange,
      );
      if (!changed) throw notFound();
      return changed;
    },
  );

  app.delete<RecordParams>(
    '/api/report-subscriptions/:id',
    actionRoute({
      tag: TAG,
      operationId: 'reportSubscriptionsDestroy',
      summary: 'End a report subscription',
      description: ACCESS,
      answers: {
        200: {
          description: 'Deleted.',
          schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
        },
      },
      errors: [401, 403, 404, 503],
    }),
    async (request) => {
      const caller = await owner(request);
      validInput(request);
      if (!(await destroySubscription(db, caller, request.params.id))) throw notFound();
      return { message: 'Report subscription deleted.' };
    },
  );
};
