/**
 * What the API answers to bad input: a 422 that names the problem for a bad builder query or body (never
 * a 500), a foreign key outside the caller's reach, 400 for malformed JSON and 413 for an oversized body;
 * and a create, update and delete round trip.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { ADMIN, CLIENT, queryWorld, type QueryWorld } from './query-world.ts';

describe.each(targets)('builder query on $name', (target) => {
  let t: TestApp;
  let jansen: number;
  let devries: number;
  let get: QueryWorld['get'];

  beforeAll(async () => {
    t = await buildTestApp(target);
    ({ jansen, devries, get } = await queryWorld(t));
  });
  afterAll(() => t?.close());

  it('bad input gets a 422 that names the problem, never a 500', async () => {
    const cases: [object, string][] = [
      [{ builder: [{ where: ['password_hash', '=', 'x'] }] }, 'Unknown field "password_hash" on tickets.'],
      [{ builder: [{ where: ['tenant_id', '=', '1'] }] }, 'Unknown field "tenant_id" on tickets.'],
      [
        { builder: [{ orderBy: ['id; drop table tickets', 'asc'] }] },
        'Unknown field "id; drop table tickets" on tickets.',
      ],
      [{ builder: [{ orderBy: ['id', 'desc nulls first'] }] }, 'The sort direction must be asc or desc.'],
      [{ builder: [{ where: ['id', '~', '1'] }] }, 'Unknown operator "~". Allowed: = != < <= > >= like.'],
      [{ builder: [{ paginate: 101 }] }, 'The page size must be a whole number from 1 to 100.'],
      [{ builder: [{ paginate: 0 }] }, 'The page size must be a whole number from 1 to 100.'],
      [{ with: ['nope'] }, 'Unknown relation "nope" on tickets.'],
      [{ builder: [{ where: ['id', '=', 'abc'] }] }, 'The value for id must be a whole number.'],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await get('tickets', ADMIN, query);
      expect(status, JSON.stringify(query)).toBe(422);
      expect(body.message.startsWith(message), `${body.message} vs ${message}`).toBe(true);
      expect(body.errors).toBeTypeOf('object');
    }
    expect((await get('tickets/abc', ADMIN)).status).toBe(422);
    expect((await get('tickets/-1', ADMIN)).status).toBe(422);
    expect((await get('tickets/99999999999', ADMIN)).status).toBe(422);
    expect((await get('tickets/2147483647', ADMIN)).status).toBe(404);
    expect((await get('no-such-resource', ADMIN)).status).toBe(404);
  });

  it('create, update and delete round trip with validation errors', async () => {
    const headers = await t.as(ADMIN);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers,
      payload: { name: '', id: 3, bogus: 1 },
    });
    expect(bad.statusCode).toBe(422);
    // Every problem in one answer: the names and the empty name (the body's schema, issue 34).
    expect(bad.json().errors).toEqual({
      id: ['The id field is read-only.'],
      bogus: ['Unknown field "bogus".'],
      name: ['The name field is required.'],
    });
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers,
      payload: { name: '' },
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toEqual({
      message: 'The name field is required.',
      errors: { name: ['The name field is required.'] },
    });
    const wrongType = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers,
      payload: { name: 5 },
    });
    expect(wrongType.json().errors.name).toEqual(['The name must be of type string.']);

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers,
      payload: { name: 'Round Trip BV', city: 'Utrecht' },
    });
    expect(created.statusCode).toBe(201);
    const company = created.json();
    expect(company).toMatchObject({ name: 'Round Trip BV', city: 'Utrecht', archived_at: null });

    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/companies/${company.id}`,
      headers,
      payload: { city: 'Zwolle' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Round Trip BV', city: 'Zwolle' });
    const noop = await t.app.inject({
      method: 'PUT',
      url: `/api/companies/${company.id}`,
      headers,
      payload: {},
    });
    expect(noop.json().city).toBe('Zwolle');

    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/companies/${company.id}`, headers });
    expect(deleted.statusCode).toBe(200);
    expect((await get(`companies/${company.id}`, ADMIN)).status).toBe(404);
  });

  it('a foreign key must point into the caller’s own reach', async () => {
    const headers = await t.as(CLIENT);
    const status = (await get('tickets', CLIENT)).body.data[0].status_id;
    const intoOther = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers,
      payload: { description: 'Printer kapot', status_id: status, company_id: devries },
    });
    expect(intoOther.statusCode).toBe(422);
    expect(intoOther.json().errors.company_id).toEqual(['The selected company_id is invalid.']);
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers,
      payload: {
        description: 'Printer kapot',
        status_id: status,
        company_id: jansen,
        priority_id: (await get('priorities', CLIENT)).body.data[0].id,
        custom_fields: { impact: 'single' },
      },
    });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json().reference).toMatch(/^T-\d{4}-\d{5}$/);
  });

  it('malformed JSON and oversized bodies get 400 and 413', async () => {
    const headers = { ...(await t.as(ADMIN)), 'content-type': 'application/json' };
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers,
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/JSON/);
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers,
      payload: JSON.stringify({ name: 'x'.repeat(2_000_000) }),
    });
    expect(huge.statusCode).toBe(413);
  });
});
