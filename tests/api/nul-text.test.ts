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
    expect(search.json().message).toBe('The search text may not contain the NUL character.');
    const where = await t.app.inject({
      method: 'GET',
      url: '/api/companies?builder[0][where][0]=name&builder[0][where][1]==&builder[0][where][2]=a%00',
      headers: admin,
    });
    expect(where.statusCode, where.body).toBe(422);
  });

  it('in a multipart field or a file name: 422, and no message or attachment is kept', async () => {
    const count = async (table: string) =>
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
