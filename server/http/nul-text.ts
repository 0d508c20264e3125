/**
 * PostgreSQL text cannot hold the NUL character: a value with one fails its statement, which the
 * caller would hear as a 500. Every text from outside is checked here, once, before any route reads it:
 * the body, the query string and the path's parameters (a route that reads its own query parameter,
 * as the global search reads `q`, needs no check of its own); multipart fields where the form is read.
 * Header values cannot hold NUL: Node's parser refuses them.
 */
import type { FastifyInstance } from 'fastify';
import { ValidationError } from './errors.ts';
import { serverText } from '../../common/server-texts.ts';

export const NUL_TEXT = serverText('nul_text');

/** Whether any string in this parsed JSON value, keys included, holds NUL. A loop, not recursion:
 * a body nested thousands of levels deep must not exhaust the stack. */
export function holdsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes('\u0000')) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

/** The first top-level name under which a text with NUL sits (its own name included), or undefined. */
function nulParameter(values: unknown): string | undefined {
  if (values === null || typeof values !== 'object') return undefined;
  for (const [name, value] of Object.entries(values)) {
    if (holdsNul(name) || holdsNul(value)) return name.slice(0, 60);
  }
  return undefined;
}

export function refuseNulText(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const name = nulParameter(request.params) ?? nulParameter(request.query);
    if (name !== undefined) throw new ValidationError({ [name]: [NUL_TEXT] }, NUL_TEXT);
    if (request.body !== undefined && holdsNul(request.body)) {
      throw new ValidationError({ body: [NUL_TEXT] }, NUL_TEXT);
    }
  });
}
