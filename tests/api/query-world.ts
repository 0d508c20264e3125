/**
 * Set-up shared by the builder query tests (tests/api/query-filters.test.ts, query-relations.test.ts and
 * query-validation.test.ts): the demo's accounts and its two client companies, a GET as one of them, and a
 * count straight from the database to hold the API's answers against.
 */
import qs from 'qs';
import type { sql } from 'kysely';
import type { TestApp } from './harness.ts';

export const CLIENT = 'client@example.com';
export const OTHER = 'other@example.com';
export const ADMIN = 'admin@example.com';

export interface QueryWorld {
  /** The demo client's company (Jansen BV) and the other client's (De Vries Installaties). */
  jansen: number;
  devries: number;
  /** GET /api/{path} as this account, the query in the builder's bracket notation. */
  get(path: string, email: string, query?: object): Promise<{ status: number; body: any }>;
  /** The `n` of a `select count(*) as n` straight from the database. */
  rawCount(query: ReturnType<typeof sql>): Promise<number>;
}

export async function queryWorld(t: TestApp): Promise<QueryWorld> {
  const companies = await t.db.selectFrom('companies').select(['id', 'name']).execute();
  const jansen = companies.find((c) => c.name === 'Jansen BV')!.id;
  const devries = companies.find((c) => c.name === 'De Vries Installaties')!.id;

  async function get(path: string, email: string, query: object = {}) {
    const q = qs.stringify(query, { encodeValuesOnly: true });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/${path}${q ? `?${q}` : ''}`,
      headers: await t.as(email),
    });
    return { status: res.statusCode, body: res.json() };
  }

  async function rawCount(query: ReturnType<typeof sql>) {
    const { rows } = await query.execute(t.db);
    return Number((rows[0] as { n: number }).n);
  }
  return { jansen, devries, get, rawCount };
}
