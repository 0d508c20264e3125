/**
 * Request bodies checked against the schemas with ajv (strict mode on: our x- keywords are declared
 * as a vocabulary, anything else unknown is an error at start). The 422 body names each field.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ValidationError } from '../http/errors.ts';
import type { Field, Resource } from '../../common/schema/types.ts';
import { inputErrors } from './input-errors.ts';
import { recordBodySchema } from './record-body.ts';

export const X_KEYWORDS = [
  'x-table',
  'x-tenant',
  'x-where',
  'x-actions',
  'x-default-sort',
  'x-search',
  'x-global-search',
  'x-label',
  'x-morph-type',
  'x-order-field',
  'x-relations',
  'x-portal',
  'x-filter',
  'x-sort',
  'x-me',
  'x-default',
  'x-enum',
  'x-list',
  'x-column',
  'x-translated',
  'x-owner',
  'x-personal',
  'x-own-rows',
  'x-versions',
  'x-tabs',
  'x-invoice-line',
  'x-record-link',
  'x-badge',
  'x-ellipsis',
  'x-width',
  'x-input',
  'x-person-actions',
  'x-portal-resources',
  'x-detail',
  'x-time',
  'x-selector',
  'x-menu',
  'x-icon',
  'x-bulk',
  'x-views',
  'x-pickable',
  'x-one-default',
  'x-flags',
  'x-audit',
  'x-first-line',
  'x-i18n',
  // A route schema's own 422 line for a value (./input-errors.ts).
  'x-error',
];

/**
 * Our ajv: strict, every error at once, the formats and the x- vocabulary. `coerce` is for query strings
 * and path parameters only (text in, numbers and booleans as the schema says, as Fastify's own ajv does);
 * bodies are never coerced, so a wrong type is a 422. `verbose` gives each error the schema that failed,
 * whose `x-error` the formatter reads (./input-errors.ts).
 */
export function createAjv({ coerce = false }: { coerce?: boolean } = {}): Ajv2020.default {
  const ajv = new Ajv2020.default({
    strict: true,
    allErrors: true,
    allowUnionTypes: true,
    verbose: true,
    ...(coerce ? { coerceTypes: 'array' as const } : {}),
  });
  addFormats.default(ajv);
  ajv.addVocabulary(X_KEYWORDS);
  // A password is any string; it is hashed, never stored or returned as sent.
  ajv.addFormat('password', true);
  // Rich text: any string; the server sanitises it before it is stored (server/html/rich-text.ts).
  ajv.addFormat('html', true);
  // A file part of a multipart form (OpenAPI's binary): its file name stands in the form's values
  // (server/http/form-body.ts); its kind and size are judged as it streams in (server/files/upload.ts).
  ajv.addFormat('binary', true);
  return ajv;
}

/**
 * The compiled validators of each resource (the registry's Resource object: the same in every app of
 * the process, another for another registry), by mode and fields, and the one Ajv that compiles them:
 * shared by every BodyValidation, so an app, an action or an inbound mail that makes its own compiles
 * nothing a previous one did.
 */
const compiled = new WeakMap<Resource, Map<string, ValidateFunction>>();
let bodyAjv: Ajv2020.default | undefined;
let queryAjv: Ajv2020.default | undefined;

/** The process's one ajv for bodies: the records' (BodyValidation) and the routes' (http/route-validation.ts). */
export const sharedAjv = (): Ajv2020.default => (bodyAjv ??= createAjv());

/** Its twin for query strings and path parameters, which coerces text as the schema says. */
export const sharedQueryAjv = (): Ajv2020.default => (queryAjv ??= createAjv({ coerce: true }));

/** A body ajv and its query twin that know one set of shared component schemas. */
export interface AjvPair {
  body: Ajv2020.default;
  query: Ajv2020.default;
}

/** The pairs by their components (as JSON); the first set is the shared pair's. */
const withComponents = new Map<string, AjvPair>();

/**
 * The ajv pair that knows `components` (Fastify's shared schemas, `{$id: 'Ticket', …}`, which route
 * schemas reference as `Ticket#`). The first set given becomes the shared pair's own, so a process with
 * one registry (every server) validates records and routes with the same two instances. Another set (a
 * test's app with another registry, whose `Ticket` differs) cannot share them: ajv refuses a second
 * schema under an `$id` it has, and must not swap one under compiled validators. It gets its own pair
 * from the same createAjv(), kept for any later app with the same components. Components are added, not
 * compiled: only those a route's params, query or body reference are ever compiled.
 */
export function ajvWith(components: readonly Record<string, unknown>[]): AjvPair {
  const key = JSON.stringify(components);
  let pair = withComponents.get(key);
  if (pair) return pair;
  pair = withComponents.size
    ? { body: createAjv(), query: createAjv({ coerce: true }) }
    : { body: sharedAjv(), query: sharedQueryAjv() };
  for (const schema of components) {
    pair.body.addSchema(schema);
    pair.query.addSchema(schema);
  }
  withComponents.set(key, pair);
  return pair;
}

/**
 * A record's body checked against the schema of the fields the caller may write (./record-body.ts: the
 * same generator as the document's create and update bodies), each schema compiled once per process.
 */
export class BodyValidation {
  private compile(resource: Resource, writable: Field[], forCreate: boolean): ValidateFunction {
    let cache = compiled.get(resource);
    if (!cache) compiled.set(resource, (cache = new Map()));
    const key = `${forCreate}:${writable.map((f) => f.name).join(',')}`;
    let fn = cache.get(key);
    if (!fn) {
      fn = sharedAjv().compile(recordBodySchema(resource, writable, { create: forCreate }));
      cache.set(key, fn);
    }
    return fn;
  }

  /** The body's fields, checked: every problem of the body in one 422. */
  check(resource: Resource, body: unknown, writable: Field[], forCreate: boolean): Record<string, unknown> {
    const validate = this.compile(resource, writable, forCreate);
    if (!validate(body)) throw new ValidationError(inputErrors(validate.errors ?? []));
    return body as Record<string, unknown>;
  }
}

/**
 * For a route whose schema has checked the record body already (server/http/route-validation.ts,
 * `validInput`, with the same words): the generic write takes the body as it is.
 */
export class CheckedBySchema extends BodyValidation {
  override check(_resource: Resource, body: unknown): Record<string, unknown> {
    return body as Record<string, unknown>;
  }
}
