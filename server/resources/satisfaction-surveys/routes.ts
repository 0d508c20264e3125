/**
 * The survey link's calls (issue 39, item 3), without a login: the link's token is the only key, and
 * it opens this one survey of the tenant whose address it was sent from. GET reads what the page shows
 * and changes nothing (mail scanners fetch links: a GET that rated would rate for them); POST rates.
 */
import type { FastifyInstance } from 'fastify';
import type { ActionPlugin } from '../action-contract.ts';
import { actionRoute, closedBody } from '../../docs/action-schema.ts';
import { PUBLIC } from '../../docs/components.ts';
import { validInput } from '../../http/route-validation.ts';
import { optOut, rateSurvey, viewSurvey, type RatingInput } from './rate.ts';
import { setSurveyLinkOrigin } from './send.ts';
import { satisfactionReportRoute } from './report.ts';

const TAG = 'satisfaction-surveys';

const TOKEN_PARAMS = {
  // A token is 43 base64url characters; anything else cannot be one, and is refused unread.
  token: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' },
};

const VIEW = {
  type: 'object',
  required: ['reference', 'description', 'tenant', 'scale', 'language', 'rating', 'rated'],
  properties: {
    reference: { type: 'string' },
    description: { type: 'string' },
    tenant: { type: 'string' },
    scale: { type: 'integer', enum: [3, 5], description: '3: good (3), neutral (2), bad (1); 5: 1 to 5.' },
    language: { type: 'string', description: 'The language the mail was written in.' },
    rating: { type: ['integer', 'null'] },
    rated: { type: 'boolean' },
  },
};

type TokenRoute = { Params: { token: string }; Body: RatingInput };

const surveyRoutes: ActionPlugin = async (app: FastifyInstance, { db, registry, config }) => {
  setSurveyLinkOrigin(config.publicUrl);
  satisfactionReportRoute(app, db);

  app.get<TokenRoute>(
    '/api/surveys/:token',
    actionRoute({
      tag: TAG,
      operationId: 'surveysShow',
      summary: 'The satisfaction survey of a link (no login)',
      description:
        'What the survey page shows: the ticket, the scale and, once answered, the rating. Changes nothing. ' +
        'An unknown, altered or expired link answers 404.',
      security: PUBLIC,
      params: TOKEN_PARAMS,
      answers: { 200: { description: 'The survey.', schema: VIEW } },
      errors: [404, 422, 503],
    }),
    async (request) => {
      validInput(request);
      return viewSurvey(db, request.tenant.id, request.params.token);
    },
  );

  app.post<TokenRoute>(
    '/api/surveys/:token',
    actionRoute({
      tag: TAG,
      operationId: 'surveysRate',
      summary: 'Rate a satisfaction survey through its link (no login), once',
      description:
        '`rating` 1 to the scale (3 or 5); `comment` optional. The link works once and for 30 days: an ' +
        'answered survey answers 422 under `token`, an unknown, altered or expired link 404. A bad ' +
        "rating tells the ticket's operator and their line, and fires the trigger event `survey_rated`.",
      security: PUBLIC,
      params: TOKEN_PARAMS,
      body: closedBody(
        {
          rating: { type: 'integer', minimum: 1, maximum: 5 },
          comment: { type: ['string', 'null'], maxLength: 2000 },
        },
        ['rating'],
      ),
      answers: { 200: { description: 'The survey, now answered.', schema: VIEW } },
      errors: [404, 422, 503],
    }),
    async (request) => {
      validInput(request);
      return rateSurvey(db, registry, request.tenant.id, request.params.token, request.body);
    },
  );

  app.post<TokenRoute>(
    '/api/surveys/:token/opt-out',
    actionRoute({
      tag: TAG,
      operationId: 'surveysOptOut',
      summary: 'No more satisfaction surveys for the client of a survey link (no login)',
      description:
        "Sets the survey's client's `survey_opt_out`: no survey is mailed to them again. Works while the " +
        'link does (30 days), answered or not; an unknown, altered or expired link answers 404.',
      security: PUBLIC,
      params: TOKEN_PARAMS,
      answers: {
        200: {
          description: 'Opted out.',
          schema: { type: 'object', required: ['opted_out'], properties: { opted_out: { const: true } } },
        },
      },
      errors: [404, 422, 503],
    }),
    async (request) => {
      validInput(request);
      return optOut(db, request.tenant.id, request.params.token);
    },
  );
};

export default surveyRoutes;
