/**
 * The exact 422 of bad notification choices (PUT /api/notification-preferences): the list's own line
 * under `data`, a kind or email named by its place (`data.1.email`), in the words the app matches.
 * And a notification list asked for a page number that is no finite number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAILED_KINDS } from '../../server/resources/notifications/kinds.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';

const LIST = { data: ['Send the choices as a list of kinds, each with email true or false.'] };
const mention = { kind: 'mention', email: true };

describe.each(targets)('notification choices on $name', (target) => {
  let t: TestApp;
  let operator: Record<string, string>;
  const choose = (payload: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/notification-preferences',
      headers: operator,
      payload: payload as object,
    });

  beforeAll(async () => {
    t = await buildTestApp(target);
    operator = await t.as('admin@example.com');
  });
  afterAll(() => t?.close());

  it.each<[string, unknown, Record<string, string[]>]>([
    ['no data', {}, LIST],
    ['data that is no list', { data: 'mention' }, LIST],
    [
      'more choices than kinds',
      { data: [...MAILED_KINDS, 'mention'].map((kind) => ({ kind, email: true })) },
      LIST,
    ],
    [
      'an unknown kind',
      { data: [mention, { kind: 'nonsense', email: true }] },
      { 'data.1.kind': ['The selected kind is invalid.'] },
    ],
    ['no kind', { data: [{ email: false }] }, { 'data.0.kind': ['The selected kind is invalid.'] }],
    [
      'an email that is no boolean',
      { data: [mention, { kind: 'assigned', email: 'yes' }] },
      { 'data.1.email': ['The email must be true or false.'] },
    ],
    ['no email', { data: [{ kind: 'assigned' }] }, { 'data.0.email': ['The email must be true or false.'] }],
    // Before the schema said it, an entry that is no object was named by its kind, and only the first
    // wrong entry was said.
    ['an entry that is no object', { data: [5] }, { 'data.0': LIST.data }],
    [
      'every wrong entry, each by its place',
      { data: [{ kind: 'nonsense', email: 1 }, mention, { kind: 'assigned' }] },
      {
        'data.0.kind': ['The selected kind is invalid.'],
        'data.0.email': ['The email must be true or false.'],
        'data.2.email': ['The email must be true or false.'],
      },
    ],
  ])('%s: the exact 422', async (_label, payload, errors) => {
    const res = await choose(payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ message: Object.values(errors)[0]![0], errors });
  });

  it('good choices are taken', async () => {
    const res = await choose({ data: [mention] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toContainEqual(mention);
  });

  // ajv coerces `1e309` to Infinity and then skips its integer and bounds checks (they run on finite
  // numbers only): the route compiler judges such a value again, so it gets its 422, never a 500.
  it.each(['page=1e309', 'page=-1e309', 'perPage=1e309'])(
    'a number too large to be one (%s) is a 422',
    async (query) => {
      const res = await t.app.inject({ url: `/api/notifications?${query}`, headers: operator });
      expect(res.statusCode, res.body).toBe(422);
      const field = query.split('=')[0]!;
      expect(Object.keys(res.json().errors)).toEqual([field]);
      expect(res.json().errors[field][0]).toMatch(/must be a whole number from 1 to/);
    },
  );
});
