/**
 * The value-free parts of a list's statement compiled once (server/query/statement-cache.ts, issue 40):
 * the statement is byte for byte the one built without the cache, for every caller and query; callers of
 * other tenants, companies, languages or kinds share only text without values, never a value; a part
 * that holds a value is never kept; the cache stays within its bound.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import qs from 'qs';
import { sql } from 'kysely';
import { registry as schemaRegistry } from '../../server/schema/registry.ts';
import { parseListQuery, QUERY_LIMITS } from '../../server/query/parse.ts';
import { sqlContext } from '../../server/query/sql.ts';
import { listStatements } from '../../server/query/select.ts';
import { keyFieldsFor } from '../../server/query/relations.ts';
import type { AuthContext } from '../../server/auth/context.ts';
import { companyAdmin, operatorAuth } from '../callers.ts';
import {
  clearStatementCache,
  compiledOnce,
  compiler,
  STATEMENT_CACHE_SIZE,
  statementCacheSize,
  statementCacheStats,
  useStatementCache,
} from '../../server/query/statement-cache.ts';

const registry = schemaRegistry();
const tickets = registry.require('tickets');
const operator = operatorAuth({ categoryIds: [5] });
const client = (tenantId: number, userId: number, companies: number[]): AuthContext => ({
  ...operator,
  kind: 'client',
  tenantId,
  userId,
  isOperator: 0,
  categoryIds: [],
  companyIds: companies,
  companyRoles: companies.map(companyAdmin),
});

function compiled(auth: AuthContext, query: string) {
  const parsed = parseListQuery(
    { registry, auth },
    tickets,
    qs.parse(query, { depth: QUERY_LIMITS.qsDepth }) as Record<string, unknown>,
  );
  const statements = listStatements(
    sqlContext(registry, auth),
    tickets,
    parsed,
    keyFieldsFor(tickets, parsed.with),
    [],
    undefined,
    true,
  );
  return statements.rows.compile(compiler);
}

const QUERIES = [
  '',
  'with[]=company&with[]=status&with[]=priority&builder[0][orderBy][0]=updated_at&builder[0][orderBy][1]=desc&builder[1][paginate]=15',
  'with[]=status&builder[0][where][0]=status_id&builder[0][where][1]=3&builder[1][s]=printer&page=3',
  'builder[0][whereIn][0]=priority_id&builder[0][whereIn][1][0]=1&builder[0][whereIn][1][1]=2&builder[1][select][0]=reference',
  'builder[0][select][0]=reference&builder[0][select][1]=status.name_client&builder[1][paginate]=50&with=status',
  'builder[0][whereHas][0]=status&builder[0][whereHas][1][0][where][0]=id&builder[0][whereHas][1][0][where][1]=2&page=200',
];

describe('the statement cache', () => {
  beforeEach(() => {
    useStatementCache(true);
    clearStatementCache();
  });
  afterAll(() => {
    useStatementCache(true);
    clearStatementCache();
  });

  it('builds, for every caller and query, the statement built without it, byte for byte', () => {
    const callers = [
      operator,
      { ...operator, language: 'en' as const },
      { ...operator, language: 'de' as const },
      client(1, 9, [11, 12]),
      client(2, 9, [11]),
    ];
    for (const auth of callers) {
      for (const query of QUERIES) {
        // Not the client's fields (status.name_client is a portal field, reference is both).
        if (auth.kind === 'operator' && query.includes('name_client')) continue;
        useStatementCache(false);
        const plain = compiled(auth, query);
        useStatementCache(true);
        const first = compiled(auth, query);
        const again = compiled(auth, query);
        expect(first.sql, query).toBe(plain.sql);
        expect(first.parameters, query).toEqual(plain.parameters);
        expect(again.sql, query).toBe(plain.sql);
        expect(again.parameters, query).toEqual(plain.parameters);
      }
    }
    expect(statementCacheStats.hits).toBeGreaterThan(0);
  });

  it('lets callers of other tenants and companies share text, each with its own values', () => {
    const [shape] = [QUERIES[1]!];
    const a = compiled(client(1, 9, [11, 12]), shape);
    const hitsBefore = statementCacheStats.hits;
    const b = compiled(client(2, 10, [21, 22]), shape);
    // The second caller reused the first one's columns …
    expect(statementCacheStats.hits).toBeGreaterThan(hitsBefore);
    expect(b.sql).toBe(a.sql);
    // … and none of its values: the tenant and the companies are the second caller's own.
    expect(a.parameters).toContain(1);
    expect(a.parameters).toEqual(expect.arrayContaining([11, 12]));
    expect(b.parameters).not.toContain(11);
    expect(b.parameters).not.toContain(12);
    expect(b.parameters).toEqual(expect.arrayContaining([2, 21, 22]));
    useStatementCache(false);
    expect(compiled(client(2, 10, [21, 22]), shape).parameters).toEqual(b.parameters);
    useStatementCache(true);
  });

  it("never gives an operator's columns to a client, nor one language's to another", () => {
    const shape = QUERIES[1]!;
    const back = compiled(operator, shape);
    const portal = compiled(client(1, 9, [11]), shape);
    // Operators read the ticket's operator; the portal does not name the column at all.
    expect(back.sql).toContain('"operator_id"');
    expect(portal.sql).not.toContain('"operator_id"');
    const english = compiled({ ...operator, language: 'en' }, shape);
    expect(english.sql).not.toBe(back.sql);
    expect(english.sql).toContain('"name_en"');
  });

  it('keeps no part that holds a value, and no more parts than its bound', () => {
    const part = compiledOnce('with a value', () => sql`x = ${42}`);
    expect(part.compile(compiler).parameters).toEqual([42]);
    expect(statementCacheStats.refused).toBe(1);
    expect(statementCacheSize()).toBe(0);
    for (let i = 0; i < STATEMENT_CACHE_SIZE + 50; i++)
      compiledOnce(`part ${i}`, () => sql`select ${sql.raw(String(i))}`);
    expect(statementCacheSize()).toBe(STATEMENT_CACHE_SIZE);
    // The oldest went first: the last one is still there, the first one is built again.
    expect(compiledOnce(`part ${STATEMENT_CACHE_SIZE + 49}`, () => sql`other`).compile(compiler).sql).toBe(
      `select ${STATEMENT_CACHE_SIZE + 49}`,
    );
    expect(compiledOnce('part 0', () => sql`again`).compile(compiler).sql).toBe('again');
  });
});
