/**
 * The parts of a statement that hold no value, built and compiled once (issue 40, item 2). Building a
 * list's statement, not running it, was most of our own query code's time: the default ticket list is
 * some 1,500 Kysely nodes, most of them the selected columns of the rows and of their to-one relations
 * (`t0."subject" as "subject"`), the same text for every caller and call. Such a part is compiled to its
 * text once and reused as one raw fragment, keyed by everything its text depends on.
 *
 * Only parts without values are kept: a part whose compiled form holds a parameter is never stored, so a
 * tenant id, a client's companies or a filter value can never come from the cache; they are parameters
 * of each call's own statement (docs/decisions.md, issue 40: why not the whole statement by its shape).
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import type { Fragment } from './fragments.ts';

/** Enough for every resource's columns in three languages and a few aliases; the oldest go first. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * Compiles a fragment to its text without a database. Both engines compile with PostgresQueryCompiler
 * (pg's dialect and kysely-pglite-dialect): one text. The tests and the bench compile theirs with it.
 */
export const compiler = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

const parts = new Map<string, Fragment>();
export const statementCacheStats = { hits: 0, misses: 0, refused: 0 };

const ids = new WeakMap<object, number>();
let nextId = 0;

/**
 * A number for an object (a Field of the registry) as a key: by identity, so two registries' fields of
 * the same name (tests build their own) are never taken for one another.
 */
export function identityOf(object: object): number {
  let id = ids.get(object);
  if (id === undefined) ids.set(object, (id = ++nextId));
  return id;
}

/** `build()`'s fragment, compiled once per `key` when it holds no value; built each time when it does. */
export function compiledOnce(key: string, build: () => Fragment): Fragment {
  if (!enabled) return build();
  const hit = parts.get(key);
  if (hit) {
    statementCacheStats.hits += 1;
    // Least recently used first out: a hit moves to the end.
    parts.delete(key);
    parts.set(key, hit);
    return hit;
  }
  const built = build();
  const { sql: text, parameters } = built.compile(compiler);
  if (parameters.length > 0) {
    statementCacheStats.refused += 1;
    return built;
  }
  statementCacheStats.misses += 1;
  const part = sql.raw(text) as Fragment;
  parts.set(key, part);
  if (parts.size > STATEMENT_CACHE_SIZE) parts.delete(parts.keys().next().value!);
  return part;
}

let enabled = true;

/** The benchmark and the tests: compare with the cache off (bench/list-sql-build.ts). */
export function useStatementCache(on: boolean): void {
  enabled = on;
}

/** Tests: start from an empty cache. */
export function clearStatementCache(): void {
  parts.clear();
  Object.assign(statementCacheStats, { hits: 0, misses: 0, refused: 0 });
}

export const statementCacheSize = (): number => parts.size;
