/**
 * PostgreSQL text cannot hold the NUL character: a value with one fails its statement, which the
 * caller would hear as a 500. Bodies are checked here, once, before any route reads them (query-string
 * texts are checked by the builder parser, multipart fields where the form is read).
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

export function refuseNulText(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.body !== undefined && holdsNul(request.body)) {
      throw new ValidationError({ body: [NUL_TEXT] }, NUL_TEXT);
    }
  });
}
