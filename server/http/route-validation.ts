/**
 * Route schemas that validate: a route's params, query string and body are checked by its schema with
 * the process's one ajv (server/schema/validate.ts: strict, all errors, our formats and x- vocabulary;
 * query strings and params coerced as Fastify's own ajv does, bodies never), and ajv's errors become the
 * SPEC 422 body through the one formatter (server/schema/input-errors.ts).
 *
 * The error is attached to the request (`attachValidation`), not thrown before the handler: the handler
 * calls `validInput(request)` where its input used to be checked, after the caller is known and allowed
 * (401, 403 and 404 come first, as they always did). Should a handler answer without calling it, the
 * attached 422 is answered instead of its result (`onSend`), so an invalid input never passes unnoticed.
 */
import type { FastifyReply, FastifyRequest, FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { SchemaErrorFormatter } from 'fastify/types/schema.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { ajvWith, sharedAjv, sharedQueryAjv, type AjvPair } from '../schema/validate.ts';
import { inputErrors } from '../schema/input-errors.ts';
import { ValidationError } from './errors.ts';

/**
 * The validators each pair has compiled, by what they check. ajv keeps a compiled schema by the schema
 * object, and every app builds its route schemas afresh: the apps of one process (the tests build
 * hundreds, the server one) would compile the same schemas again, about a second of CPU per app.
 */
const compiledBy = new WeakMap<AjvPair, Map<string, ReturnType<FastifySchemaCompiler<unknown>>>>();

/** The compiler of route schemas with `pair`: bodies never coerced, query strings and params coerced. */
function compilerOf(pair: AjvPair): FastifySchemaCompiler<unknown> {
  let compiled = compiledBy.get(pair);
  if (!compiled) compiledBy.set(pair, (compiled = new Map()));
  const known = compiled;
  return ({ schema, httpPart, contentType }) => {
    const key = `${httpPart}:${contentType ?? ''}:${JSON.stringify(schema)}`;
    let validate = known.get(key);
    if (!validate) {
      validate = (
        httpPart === 'body'
          ? contentType === MULTIPART
            ? awaitingForm(pair.body.compile(schema as object))
            : pair.body.compile(schema as object)
          : finiteOnly(pair.query.compile(schema as object))
      ) as ReturnType<FastifySchemaCompiler<unknown>>;
      known.set(key, validate);
    }
    return validate;
  };
}

export const MULTIPART = 'multipart/form-data';

/**
 * The validator of a multipart body: the form is a stream its handler reads, so Fastify, which validates
 * before the handler, has no body (null) and lets it pass; the handler judges the form it read with this
 * same validator (server/http/form-body.ts, validForm).
 */
function awaitingForm(validate: ValidateFunction): ValidateFunction {
  const check = ((data: unknown) => {
    if (data === null) {
      check.errors = null;
      return true;
    }
    const valid = validate(data);
    check.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  check.errors = null;
  return check;
}

/**
 * A query or path value coerced to a number that is not finite (`page=1e309` is Infinity) passes ajv:
 * its integer check and bounds run only on finite numbers. Such a value is judged again as NaN, which
 * fails its type with the value's own words (its x-error), and handed back as sent.
 */
function finiteOnly(validate: ValidateFunction) {
  const check = (data: Record<string, unknown>): boolean => {
    const sent = data && typeof data === 'object' ? { ...data } : data;
    let valid = validate(data);
    const infinite = valid
      ? Object.keys(data ?? {}).filter((k) => typeof data[k] === 'number' && !Number.isFinite(data[k]))
      : [];
    if (infinite.length > 0) {
      for (const key of infinite) data[key] = Number.NaN;
      valid = validate(data);
      for (const key of infinite) data[key] = sent[key];
    }
    check.errors = validate.errors;
    return valid;
  };
  check.errors = null as ValidateFunction['errors'];
  return check as unknown as ReturnType<FastifySchemaCompiler<unknown>>;
}

/**
 * Compiles a route's params, query string and body schema with the shared ajv (headers: none here).
 * A schema that references a shared component (`Builder#`) needs the app's components: the docs plugin,
 * which adds them to the app, puts `componentCompiler(components)` in its place (`onRoute`).
 */
export const routeValidatorCompiler = compilerOf({ body: sharedAjv(), query: sharedQueryAjv() });

/** The route compiler that knows `components` (server/schema/validate.ts, `ajvWith`). */
export const componentCompiler = (components: readonly Record<string, unknown>[]) =>
  compilerOf(ajvWith(components));

/**
 * `compiler` for a route's params and query string only: its body is checked in the handler, once the
 * caller is known (server/resources/plugin.ts: a client writes fewer fields than an operator).
 */
export const paramsOnly =
  (compiler: FastifySchemaCompiler<unknown>): FastifySchemaCompiler<unknown> =>
  (route) =>
    route.httpPart === 'body' ? () => true : compiler(route);

/** ajv's errors as the 422 of SPEC 7/8 (its message: the first line, as ValidationError makes it). */
export const routeErrorFormatter: SchemaErrorFormatter = (errors) =>
  new ValidationError(inputErrors(errors as unknown as ErrorObject[]));

const checked = Symbol('input checked');

/** The params of a route on one record (`ID_PARAMS`) once checked: the id, coerced to a number. */
export type RecordParams = { Params: { id: number } };

/**
 * The caller's input as the route schema says, or its 422: call where the input is first needed. With
 * `part`, only that part's 422 (Fastify checks params, body, query string in turn and attaches the
 * first that fails): `validInput(request, 'params')` before the record is looked up, so that an unknown
 * record is a 404 before its body is judged, then `validInput(request)` for the rest.
 */
export function validInput(request: FastifyRequest, part?: 'params'): void {
  const error = request.validationError as (Error & { validationContext?: string }) | undefined;
  if (part) {
    if (error?.validationContext === part) throw error;
    return;
  }
  (request as FastifyRequest & { [checked]?: boolean })[checked] = true;
  if (error) throw error;
}

/**
 * `validInput(request)`, with the lines of rules a schema cannot say (two fields together, say) in the
 * same 422: the schema's lines of a field first (what is wrong with the value itself), the hand-written
 * ones of the fields the schema found nothing wrong with after them.
 */
export function validInputWith(request: FastifyRequest, byHand: Record<string, string[]>): void {
  const error = request.validationError as ValidationError | undefined;
  judged(request, { ...error?.errors }, byHand);
}

/** The input judged: the schema's lines, then the hand-written ones of fields it had none for. */
export function judged(
  request: FastifyRequest,
  errors: Record<string, string[]>,
  byHand: Record<string, string[]>,
): void {
  (request as FastifyRequest & { [checked]?: boolean })[checked] = true;
  for (const [field, lines] of Object.entries(byHand)) errors[field] ??= lines;
  if (Object.keys(errors).length) throw new ValidationError(errors);
}

async function uncheckedInput(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const error = request.validationError;
  if (!error || (request as FastifyRequest & { [checked]?: boolean })[checked] || reply.statusCode >= 400) {
    return payload;
  }
  request.log.error({ url: request.url }, 'route answered without checking its input (validInput)');
  throw error;
}

/** The route options that make `schema` validate (see above). */
export function validating<S extends FastifySchema>(schema: S) {
  return {
    schema,
    validatorCompiler: routeValidatorCompiler,
    schemaErrorFormatter: routeErrorFormatter,
    attachValidation: true,
    onSend: uncheckedInput,
  };
}
