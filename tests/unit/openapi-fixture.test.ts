import { describe, expect, it } from 'vitest';
import { fixtureDocument, operations, type Doc } from './openapi-world.ts';

/**
 * The OpenAPI document of a fixture registry (openapi-world.ts): a small world of its own for the
 * behaviour that the real schemas may not happen to show, such as two resources of one title, a
 * property named x-, an enumeration and update-order. Its structure as OpenAPI 3.1:
 * openapi-structure.test.ts.
 */

const fixtureDoc = await fixtureDocument();

describe('the OpenAPI document of a fixture registry', () => {
  const doc = fixtureDoc;
  const schemas = doc.components.schemas;

  it('names the components after the title, and tells two resources of one title apart', () => {
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([
        'Account',
        'AccountCreate',
        'AccountUpdate',
        'PaginatedAccount',
        'Notes',
        'PaginatedNotes',
      ]),
    );
    expect(schemas.Error).toMatchObject({ required: ['message'] });
    expect(schemas.ValidationError.properties.errors.additionalProperties).toEqual({
      type: 'array',
      items: { type: 'string' },
    });
  });

  it('keeps the write-only password and the read-only fields where they belong', () => {
    expect(schemas.Account.properties.password).toBeUndefined();
    expect(schemas.Account.properties.created_at).toMatchObject({ readOnly: true });
    expect(schemas.AccountCreate.properties.password).toEqual({
      type: 'string',
      minLength: 8,
      writeOnly: true,
    });
    // created_at is read-only: refused by name, so it cannot be required on create.
    expect(schemas.AccountCreate.properties.created_at).toEqual({ readOnly: true, not: {} });
    expect(schemas.AccountCreate.required).toEqual(['name', 'password']);
    expect(schemas.AccountUpdate.required).toBeUndefined();
    expect(schemas.PaginatedAccount.required).toEqual([
      'data',
      'total',
      'from',
      'to',
      'per_page',
      'current_page',
      'last_page',
    ]);
  });

  it('strips the vocabulary deep inside a field, but not a property that happens to be named x-', () => {
    // Open in the record (its answers are serialised with it and keep the keys it does not list).
    expect(schemas.Account.properties.settings).toEqual({
      type: 'object',
      properties: { 'x-theme': { type: 'string' } },
      additionalProperties: true,
    });
    expect(schemas.AccountCreate.properties.settings).toEqual({
      type: 'object',
      properties: { 'x-theme': { type: 'string' } },
    });
  });

  it('names the values of an enumeration', () => {
    expect(schemas.Account.properties.kind.description).toContain('`1` Customer, `2` Supplier');
  });

  it('offers update-order only where x-actions has it, and nothing that is not in x-actions', () => {
    expect(
      doc.paths['/accounts/{id}/update-order'].put.requestBody.content['application/json'].schema,
    ).toMatchObject({
      required: ['order'],
      properties: { order: { type: 'integer' } },
    });
    expect(Object.keys(doc.paths['/notes'])).toEqual(['get']);
    expect(doc.paths['/notes/{id}']).toBeUndefined();
    expect(doc.paths['/notes/{id}/update-order']).toBeUndefined();
  });

  it('answers 401, 403, 404 and 422 on every resource operation', () => {
    for (const { path, op } of operations(doc).filter(({ path }) => /^\/(accounts|notes)/.test(path))) {
      expect(Object.keys(op.responses), path).toEqual(expect.arrayContaining(['401', '403', '404', '422']));
      expect(op.responses['422'], path).toEqual({ $ref: '#/components/responses/Unprocessable' });
      expect(
        Object.keys(op.responses).some((s) => s === '200' || s === '201'),
        path,
      ).toBe(true);
    }
    expect(doc.paths['/accounts'].post.responses['201']).toBeDefined();
  });

  it('lists relations, me, portal rules and further actions in the descriptions', () => {
    const index = doc.paths['/accounts'].get;
    expect(index.description).toContain('`notes` (hasMany notes)');
    expect(index.description).toContain('`email` (the caller');
    expect(index.description).toContain('`portal.accounts.index`');
    expect(index.description).toContain('They receive only `id`, `name`');
    expect(doc.paths['/accounts'].post.description).toContain('Clients (portal) cannot call this');
    // A relation list names its relations; a path (`notes.account`) is a name too, so no enum.
    const withParameter = index.parameters.find((p: Doc) => p.name === 'with[]');
    expect(withParameter).toMatchObject({
      style: 'form',
      explode: true,
      schema: { items: { type: 'string' } },
    });
    expect(withParameter.description).toContain('Relations: `notes`.');
    expect(doc.tags.find((t: Doc) => t.name === 'accounts').description).toContain('`archive`');
  });
});
