/**
 * An operator's notifications and mail choices (issue 19, item 3); each call reads and writes only the
 * caller's own rows (store.ts), so they are routes of their own rather than the generic ones (which
 * scope by tenant, not by user). Operators only: clients get 403.
 *
 * - `GET /api/notifications?page&perPage&unread` newest first, with the unread count (the bell);
 * - `POST /api/notifications/{id}/read`, `POST /api/notifications/read-all`;
 * - `GET /api/notification-preferences`, `PUT /api/notification-preferences` (per kind: by e-mail or not;
 *   in the app always).
 */
import type { FastifyRequest } from 'fastify';
import { forbidden, notFound } from '../../http/errors.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { actionRoute, OPERATORS_ONLY } from '../../docs/action-schema.ts';
import { choose, listNotifications, markRead, preferences, type Preference } from './store.ts';
import { MAILED_KINDS, NOTIFICATION_KINDS } from './kinds.ts';
import { serverText } from '../../../common/server-texts.ts';

const MAX_PER_PAGE = 100;

async function operator(request: FastifyRequest): Promise<{ tenantId: number; userId: number }> {
  const auth = await request.getAuth();
  if (auth.kind !== 'operator' || auth.userId === null) throw forbidden();
  return { tenantId: auth.tenantId, userId: auth.userId };
}

const NOTIFICATION = {
  type: 'object',
  required: ['id', 'kind', 'ticket_id', 'read_at', 'created_at'],
  properties: {
    id: { type: 'integer' },
    kind: { type: 'string', enum: [...NOTIFICATION_KINDS] },
    ticket_id: { type: ['integer', 'null'] },
    ticket_reference: { type: ['string', 'null'] },
    ticket_description: { type: ['string', 'null'] },
    message_id: { type: ['integer', 'null'] },
    actor_name: { type: ['string', 'null'] },
    text: { type: ['string', 'null'] },
    read_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: { type: 'string', format: 'date-time' },
  },
  additionalProperties: false,
};

const COUNT = {
  type: 'object',
  required: ['unread'],
  properties: { unread: { type: 'integer' } },
  additionalProperties: false,
};

const PREFERENCES = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'email'],
        properties: { kind: { type: 'string', enum: [...MAILED_KINDS] }, email: { type: 'boolean' } },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};

/**
 * The choices as sent: at most one per kind, the list's line under `data` (`choices_list`), a kind or
 * email named by its place (`data.1.email`, server/schema/input-errors.ts).
 */
const CHOICES = {
  type: 'object',
  required: ['data'],
  additionalProperties: false,
  properties: {
    data: {
      type: 'array',
      maxItems: MAILED_KINDS.length,
      'x-error': 'choices_list',
      items: {
        type: 'object',
        required: ['kind', 'email'],
        additionalProperties: false,
        properties: {
          kind: { type: 'string', enum: [...MAILED_KINDS], 'x-error': 'selected_invalid' },
          email: { type: 'boolean', 'x-error': 'value_true_false' },
        },
        'x-error': { type: 'choices_list' },
      },
    },
  },
};

/** The highest page asked for. */
const MAX_PAGE = 100_000;

/** A page number's line, as the query's schema says it (x-error). */
const rangeText = (field: string, max: number) => serverText('number_range', { field, max });

export const notificationActions: ActionPlugin = async (app, { db }) => {
  app.get(
    '/api/notifications',
    actionRoute({
      tag: 'notifications',
      operationId: 'notificationsList',
      params: false,
      summary: "The caller's notifications, newest first, and how many are unread",
      description: OPERATORS_ONLY,
      query: {
        page: { type: 'integer', minimum: 1, maximum: MAX_PAGE, 'x-error': rangeText('page', MAX_PAGE) },
        perPage: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_PER_PAGE,
          'x-error': rangeText('perPage', MAX_PER_PAGE),
        },
        unread: { type: 'boolean', description: 'Only the unread ones.', 'x-error': 'value_true_false' },
      },
      answers: {
        200: {
          description: 'A page of notifications.',
          schema: {
            type: 'object',
            required: ['data', 'total', 'unread'],
            properties: {
              data: { type: 'array', items: NOTIFICATION },
              total: { type: 'integer' },
              unread: { type: 'integer' },
            },
            additionalProperties: false,
          },
        },
      },
      errors: [401, 403, 422, 503],
    }),
    async (request) => {
      const { tenantId, userId } = await operator(request);
      validInput(request);
      const query = request.query as { page?: number; perPage?: number; unread?: boolean };
      return listNotifications(db, tenantId, userId, {
        page: query.page ?? 1,
        perPage: query.perPage ?? 20,
        unreadOnly: query.unread === true,
      });
    },
  );

  app.post<RecordParams>(
    '/api/notifications/:id/read',
    actionRoute({
      tag: 'notifications',
      operationId: 'notificationRead',
      summary: 'Mark one of the caller’s notifications read',
      description: `${OPERATORS_ONLY} 404 for a notification of someone else.`,
      answers: { 200: { description: 'The unread count after it.', schema: COUNT } },
    }),
    async (request) => {
      const { tenantId, userId } = await operator(request);
      validInput(request);
      const { found, unread } = await markRead(db, tenantId, userId, request.params.id);
      if (!found) throw notFound();
      return { unread };
    },
  );

  app.post(
    '/api/notifications/read-all',
    actionRoute({
      tag: 'notifications',
      operationId: 'notificationsReadAll',
      params: false,
      summary: 'Mark all of the caller’s notifications read',
      description: OPERATORS_ONLY,
      answers: { 200: { description: 'The unread count after it (0).', schema: COUNT } },
      errors: [401, 403, 503],
    }),
    async (request) => {
      const { tenantId, userId } = await operator(request);
      const { unread } = await markRead(db, tenantId, userId, 'all');
      return { unread };
    },
  );

  app.get(
    '/api/notification-preferences',
    actionRoute({
      tag: 'notification-preferences',
      operationId: 'notificationPreferences',
      params: false,
      summary: 'Per kind of notification: whether the caller is told by e-mail too',
      description: `${OPERATORS_ONLY} Every kind, in the app always; by e-mail when \`email\` (default false).`,
      answers: { 200: { description: 'One entry per kind.', schema: PREFERENCES } },
      errors: [401, 403, 503],
    }),
    async (request) => {
      const { tenantId, userId } = await operator(request);
      return { data: await preferences(db, tenantId, userId) };
    },
  );

  app.put(
    '/api/notification-preferences',
    actionRoute({
      tag: 'notification-preferences',
      operationId: 'notificationPreferencesChoose',
      params: false,
      summary: 'Choose per kind whether the caller is told by e-mail too',
      description: `${OPERATORS_ONLY} Kinds not sent keep their choice.`,
      body: CHOICES,
      answers: { 200: { description: 'Every kind, as chosen now.', schema: PREFERENCES } },
      errors: [401, 403, 422, 503],
    }),
    async (request) => {
      const { tenantId, userId } = await operator(request);
      validInput(request);
      const choices = (request.body as { data: Preference[] }).data;
      return { data: await choose(db, tenantId, userId, choices) };
    },
  );
};
