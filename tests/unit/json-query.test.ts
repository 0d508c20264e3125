/**
 * The JSON-encoded list query (server/query/json-query.ts) means exactly what the bracket style means:
 * decoded into the shape qs gives, under the same limits.
 */
import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { decodeJsonQuery, JsonQueryError } from '../../server/query/json-query.ts';
import { QUERY_LIMITS } from '../../server/query/limits.ts';

const decoded = (value: string) => {
  const query: Record<string, unknown> = { builder: value };
  decodeJsonQuery(query);
  return query.builder;
};

describe('decodeJsonQuery', () => {
  it('gives what qs gives for the bracket spelling of the same builder', () => {
    const items = [
      { where: ['status_id', '=', 3] },
      { whereIn: ['priority_id', [1, 2]] },
      { whereHas: ['company', [{ where: ['name', 'like', '%BV%'] }]] },
      { where: ['archived', false] },
      { paginate: 25 },
    ];
    // As the server's query string parser reads it (server/app.ts): nested deeper than qs's default.
    const brackets = qs.parse(qs.stringify({ builder: items }), { depth: QUERY_LIMITS.qsDepth }).builder;
    expect(decoded(JSON.stringify(items))).toEqual(brackets);
    expect(decoded(JSON.stringify(items))).toEqual([
      { where: ['status_id', '=', '3'] },
      { whereIn: ['priority_id', ['1', '2']] },
      { whereHas: ['company', [{ where: ['name', 'like', '%BV%'] }]] },
      { where: ['archived', 'false'] },
      { paginate: '25' },
    ]);
  });

  it('decodes the preset counts’ builders too, and null as the empty text a bracket value would be', () => {
    const query: Record<string, unknown> = {
      builders: '[{"id":1,"builder":[{"where":["operator_id",null]}]}]',
    };
    decodeJsonQuery(query);
    expect(query.builders).toEqual([{ id: '1', builder: [{ where: ['operator_id', ''] }] }]);
  });

  it('leaves a value that is not a JSON list to the list parser, and other parameters alone', () => {
    const query: Record<string, unknown> = { builder: 'status_id', page: '[1]', with: ['company'] };
    decodeJsonQuery(query);
    expect(query).toEqual({ builder: 'status_id', page: '[1]', with: ['company'] });
  });

  it('refuses invalid JSON under the parameter’s own key', () => {
    expect(() => decoded('[{"where":')).toThrow(JsonQueryError);
    try {
      decoded('[{"where":');
    } catch (error) {
      expect((error as JsonQueryError).key).toBe('builder');
      expect((error as Error).message).toBe('builder starts as a JSON list but is not valid JSON.');
    }
  });

  it('bounds the work as qs does: depth, entries per list and the number of values', () => {
    const deep = '['.repeat(QUERY_LIMITS.qsDepth + 2) + ']'.repeat(QUERY_LIMITS.qsDepth + 2);
    expect(() => decoded(deep)).toThrow(`builder is nested more than ${QUERY_LIMITS.qsDepth} levels deep.`);
    const wide = JSON.stringify([Array.from({ length: QUERY_LIMITS.qsArrayLimit + 1 }, () => 1)]);
    expect(() => decoded(wide)).toThrow(`has more than ${QUERY_LIMITS.qsArrayLimit} entries`);
    const many = JSON.stringify(
      Array.from({ length: 30 }, () => ({ whereIn: ['id', Array.from({ length: 100 }, () => 1)] })),
    );
    expect(() => decoded(many)).toThrow(`builder has more than ${QUERY_LIMITS.qsParameterLimit} values.`);
    // A million brackets: refused at the depth limit, not by the stack.
    expect(() => decoded('['.repeat(1_000_000))).toThrow(JsonQueryError);
  });
});
