/**
 * The exact 422 of a bad quote acceptance body (POST /api/quotes/{id}/accept): each field's line in the
 * words the portal matches (common/server-texts.ts), one line per field, the quote left sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';

/** A 1×1 PNG, as a signature pad would send it (only bigger). */
const SIGNATURE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const REQUIRED = { name: ['The name field is required.'] };
const MISSING = { signature: ['No signature has been set.'] };
const NOT_PNG = { signature: ['The signature must be a PNG image (data:image/png;base64,…).'] };
const name = 'Pieter Jansen';

describe.each(targets)('the quote acceptance body on $name', (target) => {
  let t: TestApp;
  let client: Record<string, string>;
  let quoteId: number;

  /** A sent quote of the client's company. */
  async function sentQuote(): Promise<number> {
    const company = await t.db
      .selectFrom('users as u')
      .innerJoin('company_user as cu', 'cu.user_id', 'u.id')
      .innerJoin('companies as c', 'c.id', 'cu.company_id')
      .select(['c.id', 'c.tenant_id'])
      .where('u.email', '=', 'client@example.com')
      .executeTakeFirstOrThrow();
    const quote = await t.db
      .insertInto('quotes')
      .values({
        tenant_id: company.tenant_id,
        company_id: company.id,
        name: 'Offerte',
        status_id: 2,
        total: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(quote.id);
  }

  const accept = (id: number, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/api/quotes/${id}/accept`,
      headers: client,
      payload: payload as object,
    });

  beforeAll(async () => {
    t = await buildTestApp(target);
    client = await t.as('client@example.com');
    quoteId = await sentQuote();
  });
  afterAll(() => t?.close());

  it.each<[string, unknown, Record<string, string[]>]>([
    ['a list as the body', [name], { body: ['The body must be an object with name, note and signature.'] }],
    [
      'an unknown field',
      { name, signature: SIGNATURE, extra: 1 },
      { extra: ['The field extra is not allowed.'] },
    ],
    ['no name', { signature: SIGNATURE }, REQUIRED],
    ['a blank name', { name: ' \t ', signature: SIGNATURE }, REQUIRED],
    ['a name that is no text', { name: 5, signature: SIGNATURE }, REQUIRED],
    ['a null name', { name: null, signature: SIGNATURE }, REQUIRED],
    [
      'a name over 255 characters once trimmed',
      { name: ` ${'x'.repeat(256)} `, signature: SIGNATURE },
      { name: ['The name may not be greater than 255 characters.'] },
    ],
    [
      'a note that is no text',
      { name, note: 5, signature: SIGNATURE },
      { note: ['The note must be a text.'] },
    ],
    [
      'a note over 2000 characters',
      { name, note: 'x'.repeat(2001), signature: SIGNATURE },
      { note: ['The note may not be greater than 2000 characters.'] },
    ],
    ['no signature', { name }, MISSING],
    ['a null signature', { name, signature: null }, MISSING],
    ['an empty signature', { name, signature: '' }, MISSING],
    ['a signature that is no text', { name, signature: 5 }, NOT_PNG],
    ['a JPEG data URL', { name, signature: 'data:image/jpeg;base64,/9j/4AAQ' }, NOT_PNG],
    [
      'an over-long JPEG data URL (not a PNG, said once)',
      { name, signature: 'data:image/jpeg;base64,' + 'A'.repeat(520 * 1024) },
      NOT_PNG,
    ],
    [
      'an over-long signature',
      { name, signature: SIGNATURE + 'A'.repeat(520 * 1024) },
      { signature: ['The signature may not be larger than 500 KB.'] },
    ],
    [
      'base64 that is no PNG',
      { name, signature: 'data:image/png;base64,aGVsbG8gd29ybGQ=' },
      { signature: ['The signature is not a valid PNG image.'] },
    ],
    [
      'a blank name and an image that does not decode, in one answer',
      { name: '', signature: 'data:image/png;base64,aGVsbG8gd29ybGQ=' },
      { ...REQUIRED, signature: ['The signature is not a valid PNG image.'] },
    ],
    [
      'every field wrong at once',
      { name: '', note: [], signature: 'x', other: true },
      {
        other: ['The field other is not allowed.'],
        ...REQUIRED,
        note: ['The note must be a text.'],
        ...NOT_PNG,
      },
    ],
  ])('%s: 422 with its line', async (_label, payload, errors) => {
    const res = await accept(quoteId, payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ message: Object.values(errors)[0]![0], errors });
  });

  it('a name is stored trimmed, a blank or null note as none', async () => {
    for (const note of ['  ', null]) {
      const id = await sentQuote();
      const res = await accept(id, { name: `  ${name} `, note, signature: SIGNATURE });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ signed_name: name, signed_note: null, status_id: 3 });
    }
  });
});
