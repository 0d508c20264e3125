import { describe, expect, it } from 'vitest';
import {
  componentValidators,
  fixtureDocument,
  METHODS,
  newAjv,
  once,
  operations,
  pointer,
  realDocument,
  resolve,
  walk,
  type Doc,
} from './openapi-world.ts';

/**
 * The document is what @fastify/swagger builds from the generic resource routes' schemas (the whole
 * app's, with every other route, is checked in tests/api/openapi-routes.test.ts). Here, for the real
 * schemas and a fixture registry alike: its structure as OpenAPI 3.1 requires it (a compact meta-schema
 * of the parts that matter, plus the rules a JSON Schema cannot say: $refs resolve, path templates are
 * declared), and every component schema compiled by ajv in strict mode (so a leftover `x-` keyword
 * fails). Its content against the registry it was generated from: openapi-real-schemas.test.ts and
 * openapi-fixture.test.ts.
 */

const realDoc = await realDocument();
const fixtureDoc = await fixtureDocument();
const real = () => realDoc;
const fixture = () => fixtureDoc;

/** The parts of the OpenAPI 3.1 meta-schema that a generator gets wrong, in JSON Schema 2020-12. */
const OAS_31_SUBSET = {
  type: 'object',
  required: ['openapi', 'info', 'paths', 'components'],
  properties: {
    openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' },
    info: {
      type: 'object',
      required: ['title', 'version'],
      properties: { title: { type: 'string' }, version: { type: 'string' } },
    },
    servers: { type: 'array', items: { type: 'object', required: ['url'] } },
    security: { type: 'array', items: { $ref: '#/$defs/securityRequirement' } },
    tags: { type: 'array', items: { type: 'object', required: ['name'] } },
    paths: {
      type: 'object',
      propertyNames: { pattern: '^/' },
      additionalProperties: {
        type: 'object',
        propertyNames: { enum: [...METHODS, 'parameters', 'summary', 'description', 'servers'] },
        properties: Object.fromEntries(METHODS.map((m) => [m, { $ref: '#/$defs/operation' }])),
      },
    },
    components: {
      type: 'object',
      properties: {
        schemas: { type: 'object', propertyNames: { pattern: '^[a-zA-Z0-9._-]+$' } },
        parameters: { type: 'object', additionalProperties: { $ref: '#/$defs/parameter' } },
        responses: { type: 'object', additionalProperties: { $ref: '#/$defs/response' } },
        securitySchemes: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            required: ['type'],
            properties: { type: { enum: ['apiKey', 'http', 'mutualTLS', 'oauth2', 'openIdConnect'] } },
            if: { properties: { type: { const: 'apiKey' } } },
            then: { required: ['name', 'in'], properties: { in: { enum: ['query', 'header', 'cookie'] } } },
            else: { if: { properties: { type: { const: 'http' } } }, then: { required: ['scheme'] } },
          },
        },
      },
    },
  },
  $defs: {
    securityRequirement: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
    reference: { type: 'object', required: ['$ref'], properties: { $ref: { type: 'string' } } },
    operation: {
      type: 'object',
      required: ['responses'],
      properties: {
        operationId: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
        parameters: {
          type: 'array',
          items: { anyOf: [{ $ref: '#/$defs/reference' }, { $ref: '#/$defs/parameter' }] },
        },
        requestBody: {
          anyOf: [
            { $ref: '#/$defs/reference' },
            { type: 'object', required: ['content'], properties: { content: { $ref: '#/$defs/content' } } },
          ],
        },
        responses: {
          type: 'object',
          minProperties: 1,
          propertyNames: { pattern: '^([1-5][0-9X]{2}|default)$' },
          additionalProperties: { anyOf: [{ $ref: '#/$defs/reference' }, { $ref: '#/$defs/response' }] },
        },
        security: { type: 'array', items: { $ref: '#/$defs/securityRequirement' } },
      },
    },
    parameter: {
      type: 'object',
      required: ['name', 'in'],
      // A schema, or a content map of exactly one media type (a JSON-encoded parameter), never both.
      oneOf: [{ required: ['schema'] }, { required: ['content'] }],
      properties: {
        name: { type: 'string' },
        in: { enum: ['query', 'header', 'path', 'cookie'] },
        style: {
          enum: ['matrix', 'label', 'form', 'simple', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
        },
        required: { type: 'boolean' },
        schema: { type: 'object' },
        content: { type: 'object', minProperties: 1, maxProperties: 1 },
      },
      if: { properties: { in: { const: 'path' } } },
      then: { required: ['required'], properties: { required: { const: true } } },
    },
    response: {
      type: 'object',
      required: ['description'],
      properties: {
        description: { type: 'string' },
        content: { $ref: '#/$defs/content' },
        headers: { type: 'object' },
      },
    },
    content: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['schema'],
        properties: { schema: { type: 'object' } },
      },
    },
  },
};

// The subset requires properties it does not describe further (`url`, `name`), which strict mode flags.
const oasSubset = once(() => newAjv({ strictRequired: false }).compile(OAS_31_SUBSET));

describe.each([
  ['the real schemas', real],
  ['a fixture registry', fixture],
])('the OpenAPI document of %s', (_label, build) => {
  const doc = build();

  it('is OpenAPI 3.1 in its structure', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    const validate = oasSubset();
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(doc.info.title).toBe('Service desk API');
    expect(doc.servers).toEqual([{ url: '/api' }]);
  });

  it('has responses with a description on every operation', () => {
    for (const { path, method, op } of operations(doc)) {
      expect(Object.keys(op.responses).length, `${method} ${path}`).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(op.responses)) {
        expect((resolve(doc, response) as Doc)?.description, `${method} ${path} ${status}`).toBeTypeOf(
          'string',
        );
      }
    }
  });

  it('resolves every $ref to a defined component', () => {
    const refs = [...walk(doc)].filter(([, key]) => key === '$ref').map(([, , value]) => value as string);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      expect(ref, ref).toMatch(/^#\/components\/(schemas|parameters|responses)\/[^/]+$/);
      expect(pointer(doc, ref), ref).toBeDefined();
    }
  });

  it('declares every path template parameter, and only those', () => {
    for (const { path, method, op } of operations(doc)) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters ?? [])
        .map((p: Doc) => resolve(doc, p) as Doc)
        .filter((p: Doc) => p.in === 'path')
        .map((p: Doc) => p.name)
        .sort();
      expect(declared, `${method} ${path}`).toEqual(inPath);
    }
  });

  it('has unique operation ids and declares every tag it uses', () => {
    const ops = operations(doc);
    const ids = ops.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(doc.tags.map((t: Doc) => t.name));
    for (const { path, op } of ops)
      for (const tag of op.tags) expect(tags.has(tag), `${path}: ${tag}`).toBe(true);
  });

  it('security names only the declared schemes', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    // API tokens (issue 38): a bearer scheme of their own, taken wherever the access token is.
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toContainEqual({ apiToken: [] });
    expect(doc.components.securitySchemes.quoteToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Quote-Token',
    });
    const used = [...walk(doc)]
      .filter(([path, key]) => key === 'security' && path.at(-1) !== 'properties')
      .flatMap(([, , value]) => (value as Doc[]).flatMap((requirement) => Object.keys(requirement)));
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'apiToken',
      'bearerAuth',
      'metricsToken',
      'quoteToken',
    ]);
    for (const name of used) expect(['apiToken', 'bearerAuth', 'metricsToken', 'quoteToken']).toContain(name);
  });

  it('carries none of the x- vocabulary, $id or $schema', () => {
    for (const [path, key] of walk(doc)) {
      const isName = ['properties', 'patternProperties', '$defs'].includes(path.at(-1) ?? '');
      if (isName) continue;
      expect(key.startsWith('x-') || key === '$id' || key === '$schema', `${path.join('.')}.${key}`).toBe(
        false,
      );
    }
  });

  it('has component schemas that ajv compiles in strict mode', () => {
    const validator = componentValidators(doc);
    for (const name of Object.keys(doc.components.schemas)) expect(() => validator(name), name).not.toThrow();
  });
});
