/**
 * Route validators shared by the apps of one process (server/http/route-validation.ts): every app
 * builds its route schemas afresh, and a schema equal to one already compiled with the same shared
 * schemas is not compiled again; anything else that decides what a validator checks (the part of the
 * request, the body's content type, the shared schemas) gets one of its own.
 */
import { describe, expect, it } from 'vitest';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { componentCompiler } from '../../server/http/route-validation.ts';

const THING = { $id: 'ValidatorThing', type: 'object', properties: { id: { type: 'integer' } } };
const body = () => ({ type: 'object', properties: { thing: { $ref: 'ValidatorThing#' } } });
const route = (schema: object, httpPart: string, contentType?: string) =>
  ({ schema, httpPart, contentType, method: 'POST', url: '/x' }) as FastifyRouteSchemaDef<unknown>;

describe('the route validators', () => {
  it('are compiled once for equal schemas with the same shared schemas, in any app', () => {
    const first = componentCompiler([structuredClone(THING)])(route(body(), 'body'));
    const second = componentCompiler([structuredClone(THING)])(route(body(), 'body'));
    expect(second).toBe(first);
    expect(first({ thing: { id: 1 } })).toBe(true);
    expect(first({ thing: { id: 'one' } })).toBe(false);
  });

  it('are another for another part, content type or schema', () => {
    const compile = componentCompiler([structuredClone(THING)]);
    const json = compile(route(body(), 'body'));
    const form = compile(route(body(), 'body', 'multipart/form-data'));
    const query = compile(route(body(), 'querystring'));
    const other = compile(route({ ...body(), required: ['thing'] }, 'body'));
    expect(new Set([json, form, query, other]).size).toBe(4);
    // A form's validator lets Fastify's null pass (the handler reads the form) and judges the form.
    expect(form(null)).toBe(true);
    expect(form({ thing: { id: 'one' } })).toBe(false);
    expect(json(null)).toBe(false);
    expect(other({})).toBe(false);
    expect(json({})).toBe(true);
  });
});
