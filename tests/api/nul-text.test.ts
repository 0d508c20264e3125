/**
 * The NUL character in a text (issue 12: bad input is a 4xx that says what is wrong, never a 500).
 * PostgreSQL text cannot hold it, so a value with one used to fail its statement as a 500; the fuzz
 * found it in a search (`builder[0][s]=%00`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { multipart } from './multipart.ts';

describe.each(targets)('the NUL character on $name', (target) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await buildTestApp(target);
    admin = await t.as('admin@example.com');
  });
  afterAll(() => t?.close());

  it('in a JSON body: 422 that says so, and nothing is written', async () => {
    const before = await t.db
      .selectFrom('companies')
      .select(({ fn }) => fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/companies',
      headers: admin,
      payload: { name: 'Nul\u0000 BV' },
    });
    expect(created.statusCode, created.body).toBe(422);
    expect(created.json().message).toBe('Texts may not contain the NUL character.');
    const after = await t.db
      .selectFrom('companies')
      .select(({ fn }) => fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('in a nested value or a key, and on the sign-in route', async () => {
    const nested = await t.app.inject({
      method: 'POST',
      url: '/api/auth/me',
      headers: admin,
      payload: { configs: [{ name: 'list:x', value: { deep: [{ ['k\u0000']: 1 }] } }] },
    });
    expect(nested.statusCode, nested.body).toBe(422);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin\u0000@example.com', password: 'demo' },
    });
    expect(login.statusCode, login.body).toBe(422);
  });

  it('in a search or a filter value of the query string: 422 naming it', async () => {
    const search = await t.app.inject({
      method: 'GET',
      url: '/api/activities?builder[0][s]=%00',
      headers: admin,
    });
    expect(search.statusCode, search.body).toBe(422);
    // Refused with every other query-string text, before the builder parser reads it.
    expect(search.json()).toEqual({
      message: 'Texts may not contain the NUL character.',
      errors: { builder: ['Texts may not contain the NUL character.'] },
    });
    const where = await t.app.inject({
      method: 'GET',
      url: '/api/companies?builder[0][where][0]=name&builder[0][where][1]==&builder[0][where][2]=a%00',
      headers: admin,
    });
    expect(where.statusCode, where.body).toBe(422);
  });

  // Issue 31 item 8: the search route reads its own `q`, which no builder parser checked (a 500).
  it.each([
    ['the global search', '/api/search?q=abc%00def', 'q'],
    ['a page number', '/api/notifications?page=1%00', 'page'],
    ['a day bound', '/api/dashboard?from=2026-01-01T00:00:00Z%00&to=2026-01-02T00:00:00Z', 'from'],
    ['a file link token', '/api/attachments/1/file?token=%00', 'token'],
    ['a relation to load', '/api/companies?with[]=%00', 'with'],
    ['a sort order', '/api/companies?sort=name%00', 'sort'],
    ['a relation of one record', '/api/companies/1?with[]=a%00', 'with'],
    ['a preset id', '/api/presets-result-count/tickets?builders[0][id]=a%00', 'builders'],
    ['a parameter name', '/api/companies?x%00=1', 'x\u0000'],
    ['a path parameter', '/api/companies/1%00', 'id'],
    ['a resource in the path', '/api/presets-result-count/tick%00ets', 'resource'],
  ])('in %s (%s): 422 naming it', async (_what, url, key) => {
    const res = await t.app.inject({ method: 'GET', url, headers: admin });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({
      message: 'Texts may not contain the NUL character.',
      errors: { [key]: ['Texts may not contain the NUL character.'] },
    });
  });

  it('in a multipart field or a file name: 422, and no message or attachment is kept', async () => {
    const count = async (table: 'messages' | 'attachments') =>
      Number(
        (
          await t.db
            .selectFrom(table)
            .select(({ fn }) => fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const [messages, attachments] = [await count('messages'), await count('attachments')];
    const ticket = Number(
      (await t.db.selectFrom('tickets').select('id').limit(1).executeTakeFirstOrThrow()).id,
    );
    const post = (fields: [string, string][], name: string) => {
      const form = multipart(fields, [{ field: 'file[0]', name, content: Buffer.from('hallo') }]);
      return t.app.inject({
        method: 'POST',
        url: '/api/messages',
        payload: form.payload,
        headers: { ...admin, ...form.headers },
      });
    };
    const fields: [string, string][] = [
      ['morphable_type', 'ticket'],
      ['morphable_id', String(ticket)],
    ];
    const inText = await post([...fields, ['message', '<p>a\u0000b</p>']], 'notitie.txt');
    expect(inText.statusCode, inText.body).toBe(422);
    expect(inText.json().message).toBe('Texts may not contain the NUL character.');
    const inName = await post([...fields, ['message', '<p>ab</p>']], 'noti\u0000tie.txt');
    expect(inName.statusCode, inName.body).toBe(422);
    expect([await count('messages'), await count('attachments')]).toEqual([messages, attachments]);
  });
});
