/**
 * `npx tsx bench/list-sql-build.ts`: what building the SQL of the back office's default ticket list costs
 * in Node, per stage, 10,000 times (issue 40, item 2): parsing the query string, building the statement's
 * fragments, and compiling them to text and parameters. No database: this is the work before the driver.
 * docs/benchmarks.md keeps the figures.
 */
import { performance } from 'node:perf_hooks';
import qs from 'qs';
import { registry as schemaRegistry } from '../server/schema/registry.ts';
import { parseListQuery, QUERY_LIMITS } from '../server/query/parse.ts';
import { sqlContext } from '../server/query/sql.ts';
import { listStatements } from '../server/query/select.ts';
import { keyFieldsFor } from '../server/query/relations.ts';
import { hookTable } from '../server/resources/hooks.ts';
import { operatorAuth } from '../tests/callers.ts';
import { clearStatementCache, compiler, useStatementCache } from '../server/query/statement-cache.ts';

const N = Number(process.argv[2] ?? 10_000);
const registry = schemaRegistry();
const tickets = registry.require('tickets');
const auth = operatorAuth({
  permissions: new Set(Object.keys(registry.resources).map((r) => `tenant.${r}.index`)),
  language: 'nl',
});

// The back office's default list: the schema's x-list columns and the belongsTo relations they show.
const columns = Object.values(tickets.fields).filter((f) => f.list);
const withs = Object.values(tickets.relations)
  .filter((r) => r.kind === 'belongsTo' && columns.some((f) => f.name === r.key))
  .map((r) => r.name);
const queryString = qs.stringify({
  builder: [{ orderBy: ['updated_at', 'desc'] }, { paginate: 15 }],
  with: withs,
});
const parseOnce = () =>
  parseListQuery({ registry, auth }, tickets, qs.parse(queryString, { depth: QUERY_LIMITS.qsDepth }) as any);

const { presentColumns } = await hookTable();
const build = (query: ReturnType<typeof parseOnce>) => {
  const ctx = sqlContext(registry, auth, presentColumns);
  return listStatements(ctx, tickets, query, keyFieldsFor(tickets, query.with), [], undefined, true).rows;
};

/** µs per call of `fn` over `n` calls. */
function perCall(fn: () => unknown, n: number): number {
  const start = performance.now();
  for (let i = 0; i < n; i++) fn();
  return ((performance.now() - start) / n) * 1000;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const query = parseOnce();
console.log(
  `default ticket list: with ${withs.join(',')}; ${build(query).compile(compiler).sql.length} characters of SQL`,
);
const stages: [string, () => unknown][] = [
  ['parse the query string', parseOnce],
  ['build the fragments', () => build(query)],
  ['build + compile', () => build(query).compile(compiler)],
  ['parse + build + compile', () => build(parseOnce()).compile(compiler)],
];
// Off and on in turns, ROUNDS times, the median of each: a busy machine slows both alike.
const ROUNDS = 5;
const times = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const on of [false, true]) {
    useStatementCache(on);
    clearStatementCache();
    for (const [name, fn] of stages) {
      perCall(fn, 200); // warm up
      const key = `${name}|${on}`;
      times.set(key, [...(times.get(key) ?? []), perCall(fn, Math.ceil(N / ROUNDS))]);
    }
  }
}
console.log(`${'µs per call, median of ' + ROUNDS + ' rounds'.padEnd(20)}     before    after`);
for (const [name] of stages) {
  const before = median(times.get(`${name}|false`)!);
  const after = median(times.get(`${name}|true`)!);
  console.log(`${name.padEnd(40)} ${before.toFixed(1).padStart(8)} ${after.toFixed(1).padStart(8)}`);
}
useStatementCache(false);
const plain = build(query).compile(compiler);
useStatementCache(true);
const cached = build(query).compile(compiler);
if (plain.sql !== cached.sql || JSON.stringify(plain.parameters) !== JSON.stringify(cached.parameters))
  throw new Error('The cached parts changed the statement.');
