/**
 * Record ids as callers send them: in a path (`/tickets/{id}`), as a body field, or as a list
 * (`{ids: [...]}` of merges, invoicing, CSV downloads). One rule for all: a positive whole number that
 * fits PostgreSQL's integer, else a 422 that says so.
 */
import { ValidationError } from './errors.ts';

const ID = /^[1-9]\d{0,9}$/;
const MAX_INTEGER = 2_147_483_647;

/** Whether a value (number or text) is a valid record id. */
export function isId(value: unknown): boolean {
  return (
    (typeof value === 'number' || typeof value === 'string') &&
    ID.test(String(value)) &&
    Number(value) <= MAX_INTEGER
  );
}

export interface IdListRules {
  min: number;
  max: number;
  /** The line when fewer than `min` are sent. */
  tooFew: string;
  /** The line when more than `max` are sent. */
  tooMany: string;
}

/** `{ids: [...]}` and nothing else: `min` to `max` different valid ids, or a 422 naming each problem. */
export function parseIdList(body: unknown, rules: IdListRules): number[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError({ ids: ['The ids field is required.'] });
  }
  const { ids, ...rest } = body as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  for (const key of Object.keys(rest))
    errors[key.slice(0, 100)] = [`The field ${key.slice(0, 100)} is not allowed.`];
  if (ids === undefined || ids === null) errors.ids = ['The ids field is required.'];
  else if (!Array.isArray(ids)) errors.ids = ['The ids must be a list.'];
  else if (ids.length < rules.min) errors.ids = [rules.tooFew];
  else if (ids.length > rules.max) errors.ids = [rules.tooMany];
  else {
    ids.forEach((value, i) => {
      if (!isId(value)) errors[`ids.${i}`] = ['The id must be a positive whole number.'];
    });
    if (!Object.keys(errors).length && new Set(ids.map(Number)).size !== ids.length)
      errors.ids = ['The ids must be different.'];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return (ids as unknown[]).map(Number);
}
