/**
 * Answers are written by fast-json-stringify from their routes' response schemas (Fastify's default).
 * That writer trusts the schema: it leaves out what the schema does not list, writes null as '' or 0
 * where the schema says string or integer, and refuses an answer that lacks a required field. A schema
 * that lags behind its handler therefore changes the answer silently. The test servers check every
 * answer instead: written by the schema's serialiser and by JSON.stringify, the two must read back
 * equal, else the answer fails with the route, the first place where they differ and both values.
 *
 * Off unless the environment has both `SERIALIZATION_CHECK=1` and `NODE_ENV=test` (the vitest config
 * and tests/e2e/server.ts set both): it costs a second serialisation of every answer.
 */
import { isDeepStrictEqual } from 'node:util';
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

export const SERIALIZATION_CHECK_ENV = 'SERIALIZATION_CHECK';

/** Whether the environment switches the check on. */
export function serializationCheckEnabled(env: NodeJS.ProcessEnv): boolean {
  return env[SERIALIZATION_CHECK_ENV] === '1' && env.NODE_ENV === 'test';
}

/** An answer that its response schema would have changed (or could not write at all). */
export class SerializationMismatch extends Error {
  override name = 'SerializationMismatch';
}

export interface Difference {
  /** Where, as `data[0].mail_error` (`$` for the whole answer). */
  path: string;
  /** What JSON.stringify wrote there (undefined: nothing). */
  expected: unknown;
  /** What the schema's serialiser wrote there (undefined: nothing). */
  actual: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first place where two parsed JSON values differ, depth first; undefined when they are equal. */
export function firstDifference(expected: unknown, actual: unknown, path = '$'): Difference | undefined {
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      const found = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (isObject(expected) && isObject(actual)) {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      const found = firstDifference(expected[key], actual[key], `${path}.${key}`);
      if (found) return found;
    }
    return undefined;
  }
  return isDeepStrictEqual(expected, actual) ? undefined : { path, expected, actual };
}

const show = (value: unknown) => (value === undefined ? '(nothing)' : JSON.stringify(value));

/**
 * The serialisers of `build` (by default Fastify's own: fast-json-stringify through its compiler), each
 * wrapped in the check. Given to Fastify as `schemaController.compilersFactory.buildSerializer`, so it
 * receives the shared schemas (`Ticket#`) as the default does.
 */
export function checkedSerializers(build: SerializerFactory = SerializerSelector()): SerializerFactory {
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      const serialize = compile(route);
      const { contentType } = route as { contentType?: string };
      const where = `${route.method} ${route.url} (${route.httpStatus}${contentType ? ` ${contentType}` : ''})`;
      return (data: unknown) => {
        let written: string;
        try {
          written = serialize(data);
        } catch (error) {
          throw report(`${where}: the response schema cannot write this answer: ${(error as Error).message}`);
        }
        const plain = JSON.stringify(data);
        // Nothing to compare with: JSON.stringify writes no text for undefined or a function.
        if (plain === undefined) return written;
        const difference = firstDifference(JSON.parse(plain), JSON.parse(written));
        if (difference) {
          throw report(
            `${where}: the response schema changes the answer at ${difference.path}: ` +
              `the handler gave ${show(difference.expected)}, the schema wrote ${show(difference.actual)}`,
          );
        }
        return written;
      };
    };
  };
}

/**
 * The serialisers of `factory`, each made at its route's first answer of that status instead of when
 * the route is registered: fast-json-stringify compiles every route and status against all the shared
 * schemas, which made building an app take about 10 s instead of 0.3 (every start, every test app)
 * although most routes of a process never answer. The first answer of a route pays its compilation.
 */
export function lazySerializers(factory: SerializerFactory): SerializerFactory {
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      let serialize: ((data: unknown) => string) | undefined;
      return (data: unknown) => (serialize ??= compile(route))(data);
    };
  };
}

/**
 * Also on stderr: an answer that fails this way becomes a 500, and not every test prints the body it
 * did not expect.
 */
function report(message: string): SerializationMismatch {
  console.error(`SerializationMismatch: ${message}`);
  return new SerializationMismatch(message);
}
