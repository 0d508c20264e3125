/**
 * The one route plugin for every resource of the schemas: index, show, store, update, destroy and
 * update-order as each schema's x-actions allow, plus the preset counts. No route file per resource.
 * The index, show and preset-count reads run through `app.reads`: on the read replica when one is set
 * and may answer (http/read-position.ts), with the same statements, scoping and timeout as on the primary.
 */
import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import type { AuthContext } from '../auth/context.ts';
import type { Db } from '../db/database.ts';
import { forbidden, HttpError, notFound, ValidationError } from '../http/errors.ts';
import { isId } from '../http/ids.ts';
import type { Registry } from '../schema/registry.ts';
import type { Resource } from '../../common/schema/types.ts';
import { BodyValidation } from '../schema/validate.ts';
import { may } from '../auth/may.ts';
import { inVersion } from './versions.ts';
import { parseBuilderConditions, parseListQuery, parseShowQuery } from '../query/parse.ts';
import { asList } from '../query/values.ts';
import { checkBudget, presetsCost } from '../query/cost.ts';
import { answerSizeCeiling } from '../http/answer-size.ts';
import { resourceRouteSchema, type GenericAction } from '../docs/resource-schemas.ts';
import { presetCountSchema } from '../docs/fixed-schemas.ts';
import { paramsOnly, validating, validInput, type RecordParams } from '../http/route-validation.ts';
import {
  countPresets,
  destroyRecord,
  findRecord,
  listRecords,
  storeRecord,
  updateOrder,
  updateRecord,
  type Deps,
} from './repository.ts';

export async function authorize(
  request: FastifyRequest,
  resource: Resource,
  action: string,
): Promise<AuthContext> {
  const auth = await request.getAuth();
  if (!may(auth, resource, action)) throw forbidden();
  return auth;
}

export function parseId(raw: string): number {
  if (!isId(raw)) {
    throw new HttpError(
      422,
      `The id ${JSON.stringify(raw.slice(0, 20))} is not valid: it must be a positive whole number.`,
    );
  }
  return Number(raw);
}

const MAX_PRESETS = 20;

/** The routes whose bodies are checked for the caller's side, by BodyValidation (see below). */
const BODY_BY_SIDE: readonly GenericAction[] = ['store', 'update'];

export async function resourceRoutes(
  app: FastifyInstance,
  { db, registry }: { db: Db; registry: Registry },
): Promise<void> {
  // Password fields are hashed in the auth plugin's queue (absent only in apps without auth: docs tests).
  const passwords = app.hasDecorator('passwordHashing') ? app.passwordHashing : undefined;
  const deps: Deps = { db, registry, validation: new BodyValidation(), passwords };

  for (const resource of registry.resources.values()) {
    const base = `/api/${resource.name}`;
    const has = (action: string) => resource.actions.includes(action);
    /**
     * The route's schema checks its params and query string (`validating`; each handler calls
     * `validInput` where its hand check stood). A create's and an update's body depends on the caller:
     * a client writes fewer fields (x-portal), which one schema judged before the caller is known
     * cannot say. BodyValidation checks it when the record is reached (a missing one is a 404 first),
     * against the schema of the caller's side made by the generator of the document's bodies
     * (server/schema/record-body.ts).
     */
    const route = (action: GenericAction, onSend?: onSendHookHandler) => {
      const options = validating(resourceRouteSchema(registry, resource, action));
      const checked = BODY_BY_SIDE.includes(action)
        ? { ...options, validatorCompiler: paramsOnly(options.validatorCompiler) }
        : options;
      return onSend ? { ...checked, onSend: [checked.onSend, onSend] } : checked;
    };

    if (has('index')) {
      app.get(base, route('index', answerSizeCeiling('builder')), async (request) => {
        const auth = await authorize(request, resource, 'index');
        // The builder parser first: its 422s are the contract's words and judge each name against
        // what this caller may see; then the schema refuses what the document does not allow.
        const query = parseListQuery({ registry, auth }, resource, request.query as Record<string, unknown>);
        validInput(request);
        const page = await app.reads.run(request, (db) =>
          listRecords({ ...deps, db }, auth, resource, query),
        );
        return query.version && query.version !== 1 ? inVersion(resource, query.version, page) : page;
      });
    }
    if (has('show')) {
      app.get<RecordParams>(`${base}/:id`, route('show', answerSizeCeiling('with')), async (request) => {
        const auth = await authorize(request, resource, 'show');
        validInput(request, 'params');
        const show = parseShowQuery({ registry, auth }, resource, request.query as Record<string, unknown>);
        validInput(request);
        const { id } = request.params;
        return app.reads.run(request, (db) => findRecord({ ...deps, db }, auth, resource, id, show));
      });
    }
    // A resource's own route (server/resources/<name>/actions.ts, registered first) replaces the
    // generic one: messages and attachments are created from multipart forms with files.
    if (has('store') && !app.hasRoute({ method: 'POST', url: base })) {
      app.post(base, route('store'), async (request, reply) => {
        const auth = await authorize(request, resource, 'store');
        validInput(request);
        reply.status(201);
        return storeRecord(deps, auth, resource, request.body);
      });
    }
    if (has('update')) {
      app.put<RecordParams>(`${base}/:id`, route('update'), async (request) => {
        const auth = await authorize(request, resource, 'update');
        validInput(request);
        return updateRecord(deps, auth, resource, request.params.id, request.body);
      });
    }
    if (has('destroy')) {
      app.delete<RecordParams>(`${base}/:id`, route('destroy'), async (request) => {
        const auth = await authorize(request, resource, 'destroy');
        validInput(request);
        await destroyRecord(deps, auth, resource, request.params.id);
        return { message: `${resource.title} deleted.` };
      });
    }
    if (has('update-order')) {
      app.put<RecordParams & { Body: { order: number } }>(
        `${base}/:id/update-order`,
        route('update-order'),
        async (request) => {
          const auth = await authorize(request, resource, 'update-order');
          validInput(request);
          return updateOrder(deps, auth, resource, request.params.id, request.body.order);
        },
      );
    }
  }

  // GET /presets-result-count/{resource}?builders[0][id]=1&builders[0][builder][0][where][0]=…
  app.get<{ Params: { resource: string } }>(
    '/api/presets-result-count/:resource',
    validating(presetCountSchema(registry)),
    async (request) => {
      // An unknown resource is a record that does not exist (404), as before the schema named them.
      const resource = registry.get(request.params.resource);
      const auth = await request.getAuth();
      if (!resource) throw notFound();
      if (!may(auth, resource, 'index')) throw forbidden();
      const query = request.query as Record<string, unknown>;
      const builders = query.builders === undefined ? [] : asList(query.builders);
      if (!builders) throw new ValidationError({ builders: ['builders must be a list of {id, builder}.'] });
      if (builders.length > MAX_PRESETS)
        throw new ValidationError({ builders: [`At most ${MAX_PRESETS} presets can be counted at once.`] });
      const presets = builders.map((entry, i) => {
        const { id, builder } = (entry ?? {}) as { id?: unknown; builder?: unknown };
        if ((typeof id !== 'string' && typeof id !== 'number') || String(id).length > 50) {
          throw new ValidationError({ [`builders.${i}.id`]: ['Each preset needs an id.'] });
        }
        const key = /^\d+$/.test(String(id)) ? Number(id) : id;
        return {
          id: key,
          conditions: parseBuilderConditions({ registry, auth }, resource, builder, `builders.${i}.builder`),
        };
      });
      // The parser first, as for a list (above); then the schema.
      validInput(request);
      // One budget for the whole call: twenty cheap presets pass, twenty nested searches do not.
      checkBudget(presetsCost(presets.map((p) => p.conditions)), 'builders');
      return app.reads.run(request, (db) => countPresets({ ...deps, db }, auth, resource, presets));
    },
  );
}
