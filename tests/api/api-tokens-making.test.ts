/**
 * API tokens (issue 38, item 3): made through POST /api/api-tokens (shown once, kept hashed, for
 * oneself or a service account, with known scopes and a near expiry), sent as `Authorization: Bearer
 * sdk_…`, acting as their owner within their scopes, and audited without their secret.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets, type TestApp } from './harness.ts';
import { expectCallerFirst, expectInputErrors, inputErrorsOf } from './input-answers.ts';
import { bearer, calls, inDays, openTokenWorld, type Headers } from './api-tokens-world.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe.each(targets)('API tokens on $name', (target) => {
  let t: TestApp;
  let admin: Headers;
  let firstLine: Headers;
  let firstLineId: number;
  const { call, makeToken } = calls(() => t);

  beforeAll(async () => {
    ({ t, admin, firstLine, firstLineId } = await openTokenWorld(target));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows the token once, keeps only its hash, and audits its creation without it', async () => {
    const made = await makeToken(firstLine, { name: 'Monitoring', scopes: ['tenant.tickets.index'] });
    expect(made.token).toMatch(/^sdk_[A-Za-z0-9_-]{43}$/);
    expect(made.prefix).toBe(made.token.slice(0, 12));
    expect(made.owner_id).toBe(firstLineId);

    const row = await t.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(made.token));
    expect(JSON.stringify(row)).not.toContain(made.token);

    const shown = await call('GET', `/api-tokens/${made.id}`, firstLine);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).not.toHaveProperty('token');
    expect(shown.json()).not.toHaveProperty('token_hash');
    expect(shown.body).not.toContain(made.token.slice(12));

    const entries = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('resource', '=', 'api-tokens')
      .where('record_id', '=', made.id)
      .execute();
    expect(entries.map((e) => e.action)).toEqual(['record.store']);
    expect(entries[0]!.changes).toMatchObject({ name: 'Monitoring', scopes: ['tenant.tickets.index'] });
    const { rows } = await sql<{
      log: string;
    }>`select coalesce(json_agg(a)::text, '') as log from audit_log a`.execute(t.db);
    expect(rows[0]!.log).not.toContain(made.token.slice(4));
    expect(rows[0]!.log).not.toContain(row.token_hash!);
  });

  it('allows what its scopes and its owner allow, and refuses the rest with 403', async () => {
    // First line holds tickets, not invoices: the invoices scope gives the token nothing.
    const { token } = await makeToken(firstLine, {
      name: 'Read tickets',
      scopes: ['tenant.tickets.index', 'tenant.tickets.show', 'tenant.invoices.index'],
    });
    const list = await call('GET', '/tickets', bearer(token));
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().total).toBeGreaterThan(0);
    const ticketId = list.json().data[0].id as number;
    expect((await call('GET', `/tickets/${ticketId}`, bearer(token))).statusCode).toBe(200);
    // Not in the scopes: 403 although the owner may.
    expect((await call('PUT', `/tickets/${ticketId}`, bearer(token), { description: 'x' })).statusCode).toBe(
      403,
    );
    expect((await call('GET', '/companies', bearer(token))).statusCode).toBe(403);
    // In the scopes, not the owner's: 403.
    expect((await call('GET', '/invoices', bearer(token))).statusCode).toBe(403);
    // Allowed, but a record the owner may not see (none such): 404.
    expect((await call('GET', '/tickets/2147483000', bearer(token))).statusCode).toBe(404);
    // A token cannot make tokens, whatever its scopes.
    const { token: maker } = await makeToken(firstLine, {
      name: 'Maker',
      scopes: ['tenant.api-tokens.store'],
    });
    const refused = await call('POST', '/api-tokens', bearer(maker), {
      name: 'Child',
      scopes: ['tenant.tickets.index'],
      expires_at: inDays(1),
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().message).toBe('An API token cannot create tokens: sign in to create one.');
  });

  it('records the call it made in the audit log with its id', async () => {
    const made = await makeToken(admin, {
      name: 'Cleaner',
      scopes: ['tenant.tickets.store', 'tenant.tickets.destroy'],
    });
    const created = await call('POST', '/tickets', bearer(made.token), { description: 'Made by a token' });
    expect(created.statusCode, created.body).toBe(201);
    const gone = await call('DELETE', `/tickets/${created.json().id}`, bearer(made.token));
    expect(gone.statusCode, gone.body).toBe(200);
    const entry = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'record.destroy')
      .where('resource', '=', 'tickets')
      .where('record_id', '=', created.json().id)
      .executeTakeFirstOrThrow();
    expect(entry.token_id).toBe(made.id);
    expect(entry.actor).toBe('admin@example.com');
  });

  it('refuses unknown scopes, a past or too distant expiry and another person as owner (422)', async () => {
    const post = (body: object, headers = firstLine) =>
      call('POST', '/api-tokens', headers, {
        name: 'Bad',
        scopes: ['tenant.tickets.index'],
        expires_at: inDays(1),
        ...body,
      });
    const unknown = await post({ scopes: ['tenant.tickets.fly'] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.scopes).toEqual([
      'There is no permission tenant.tickets.fly to give a token.',
    ]);
    const malformed = await post({ scopes: ['portal.tickets.index'] });
    expect(malformed.statusCode).toBe(422);
    expect(Object.keys(malformed.json().errors)).toEqual(['scopes']);
    const past = await post({ expires_at: inDays(-1) });
    expect(past.statusCode).toBe(422);
    expect(past.json().errors.expires_at).toEqual(['The expiry date must lie in the future.']);
    const far = await post({ expires_at: inDays(400) });
    expect(far.statusCode).toBe(422);
    expect(far.json().errors.expires_at).toEqual(['A token expires within 366 days.']);
    const missing = await call('POST', '/api-tokens', firstLine, {
      name: 'No expiry',
      scopes: ['tenant.tickets.index'],
    });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['expires_at']);
    // Second line too: a token acts as its owner, so it is never for another person.
    const forPerson = await post({ owner_id: firstLineId }, admin);
    expect(forPerson.statusCode).toBe(422);
    expect(forPerson.json().errors.owner_id).toEqual([
      'A token is for yourself, or for a service account if you may manage tokens.',
    ]);
    const count = await t.db
      .selectFrom('api_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('name', '=', 'Bad')
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('answers bad input with a 422 naming each field, in the words of the record body', async () => {
    const base = { name: 'Bad input', scopes: ['tenant.tickets.index'], expires_at: inDays(1) };
    const answer = inputErrorsOf(
      () => t.app,
      '/api/api-tokens',
      () => firstLine,
    );
    const without = (name: keyof typeof base) =>
      Object.fromEntries(Object.entries(base).filter(([k]) => k !== name));
    const long = `x${'y'.repeat(69)}`;
    await expectInputErrors(answer, [
      ['a list', [base], { body: ['The request body must be a JSON object.'] }],
      ['null', null, { body: ['The request body must be a JSON object.'] }],
      ['no name', without('name'), { name: ['The name field is required.'] }],
      ['an empty name', { ...base, name: '' }, { name: ['The name field is required.'] }],
      ['a number as name', { ...base, name: 5 }, { name: ['The name must be of type string.'] }],
      [
        'a long name',
        { ...base, name: 'n'.repeat(101) },
        { name: ['The name may not be longer than 100 characters.'] },
      ],
      ['an unknown field', { ...base, colour: 'red' }, { colour: ['Unknown field "colour".'] }],
      [
        'a long unknown name',
        { ...base, [long]: 1 },
        { [long.slice(0, 60)]: [`Unknown field ${JSON.stringify(long).slice(0, 60)}.`] },
      ],
      ['a read-only field', { ...base, prefix: 'sdk_x' }, { prefix: ['The prefix field is read-only.'] }],
      [
        'scopes as text',
        { ...base, scopes: 'tenant.tickets.index' },
        { scopes: ['The scopes must be of type array.'] },
      ],
      ['no scopes', { ...base, scopes: [] }, { scopes: ['The scopes must NOT have fewer than 1 items.'] }],
      ['a scope as number', { ...base, scopes: [5] }, { scopes: ['The scopes must be of type string.'] }],
      [
        'a scope of another form',
        { ...base, scopes: ['portal.tickets.index'] },
        { scopes: ['The scopes must match pattern "^tenant\\.[a-z0-9-]{1,60}\\.[a-z0-9-]{1,60}$".'] },
      ],
      [
        'a scope twice',
        { ...base, scopes: ['tenant.tickets.index', 'tenant.tickets.index'] },
        { scopes: ['The scopes must NOT have duplicate items (items ## 1 and 0 are identical).'] },
      ],
      ['no expiry', without('expires_at'), { expires_at: ['The expires_at field is required.'] }],
      [
        'an expiry that is no date',
        { ...base, expires_at: 'tomorrow' },
        { expires_at: ['The expires_at must be a valid date-time.'] },
      ],
      [
        'an owner as text',
        { ...base, owner_id: '5' },
        { owner_id: ['The owner_id must be of type integer.'] },
      ],
      // Every problem at once (the names the body may not have were said alone before the schema).
      [
        'an unknown field and no name',
        { ...without('name'), colour: 'red', id: 3 },
        {
          colour: ['Unknown field "colour".'],
          id: ['The id field is read-only.'],
          name: ['The name field is required.'],
        },
      ],
      [
        'two fields wrong',
        { ...base, name: 5, expires_at: 'tomorrow' },
        {
          name: ['The name must be of type string.'],
          expires_at: ['The expires_at must be a valid date-time.'],
        },
      ],
    ]);
    // An owner that does not exist is the database's to say (by hand, after the body's checks).
    expect(await answer({ ...base, owner_id: 2147483000 })).toEqual({
      owner_id: ['The selected owner_id is invalid.'],
    });
  });

  it('refuses a revoke of an id that is none with 422, after 401', async () => {
    for (const raw of ['0', 'abc', '2147483648']) {
      const res = await call('POST', `/api-tokens/${raw}/revoke`, firstLine);
      const line = `The id "${raw}" is not valid: it must be a positive whole number.`;
      expect([res.statusCode, res.json()]).toEqual([422, { message: line, errors: { id: [line] } }]);
      expect((await call('POST', `/api-tokens/${raw}/revoke`, {})).statusCode).toBe(401);
    }
  });

  it('answers 401 and 403 before it judges the body', async () => {
    await expectCallerFirst(t.app, '/api/api-tokens', await t.as('client@example.com'));
  });
});
