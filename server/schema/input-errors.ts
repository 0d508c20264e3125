/**
 * The one formatter of schema errors: ajv's errors of a request's body, query or path as the 422 body of
 * SPEC 7/8, `{message, errors: {<field>: [lines]}}`, in the Laravel-style English lines the API promises.
 * The record bodies (./validate.ts, BodyValidation) and the route schemas (server/http/route-validation.ts)
 * both answer through it.
 *
 * A schema may name its own line: `x-error`, a key of common/server-texts.ts (filled in with the field's
 * name) or a literal text, said once for any failure of that value, a missing one included (the parent's
 * `required`). That is how a route keeps the words its hand-written check used to say.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { SERVER_TEXTS, serverText, type ServerTextKey } from '../../common/server-texts.ts';

type Params = Record<string, unknown>;

/** The line of one ajv error about `field` (the default words, without an x-error). */
export function describe(e: ErrorObject, field: string): string {
  const params = e.params as Params;
  switch (e.keyword) {
    case 'required':
      return `The ${String(params.missingProperty)} field is required.`;
    case 'type':
      return `The ${field} must be of type ${String(params.type).replace(',', ' or ')}.`;
    case 'format':
      return `The ${field} must be a valid ${String(params.format)}.`;
    case 'maxLength':
      return `The ${field} may not be longer than ${String(params.limit)} characters.`;
    case 'minLength':
      return params.limit === 1
        ? `The ${field} field is required.`
        : // The spec's min-length text: '{subject} must be at least {length} characters long.'
          `The ${field} must be at least ${String(params.limit)} characters long.`;
    case 'enum':
      return `The selected ${field} is invalid.`;
    case 'minimum':
      return `The ${field} must be at least ${String(params.limit)}.`;
    case 'maximum':
      return `The ${field} may not be greater than ${String(params.limit)}.`;
    default:
      return `The ${field} ${e.message ?? 'is invalid'}.`;
  }
}

/**
 * The x-error a schema names for its value, as a line about `field`: one text for any failure, or texts
 * by ajv keyword (`{minItems: …, maxItems: …}`; a keyword it does not name gets the default words). A
 * literal text may show the value as sent, `{value}` (as JSON, its first 20 characters), as the hand
 * checks whose words it keeps did.
 */
function ownLine(schema: unknown, field: string, e: ErrorObject): string | undefined {
  const own = (schema as Params | undefined)?.['x-error'];
  const text = typeof own === 'string' ? own : (own as Params | undefined)?.[e.keyword];
  if (typeof text !== 'string') return undefined;
  if (text in SERVER_TEXTS) return serverText(text as ServerTextKey, { field });
  return text.replace('{value}', () => JSON.stringify(String(e.data).slice(0, 20)));
}

/**
 * A name a closed object does not have, as the record bodies' line names it (./validate.ts): the key is
 * its first 60 characters, the line shows it as JSON, cut at 60 characters.
 */
export const unknownName = (name: string) => ({
  key: name.slice(0, 60),
  shown: JSON.stringify(name).slice(0, 60),
});

/**
 * The key and line of a name a closed object does not have: by itself, `The field x is not allowed.`,
 * or in the object's own words, its x-error for `additionalProperties` with `{name}` (unknownName).
 */
function unknownLine(e: ErrorObject): [string, string] {
  const name = String((e.params as Params).additionalProperty);
  const own = (e.parentSchema as Params | undefined)?.['x-error'];
  const text = own && typeof own === 'object' ? (own as Params).additionalProperties : undefined;
  if (typeof text !== 'string')
    return [name.slice(0, 100), `The field ${name.slice(0, 100)} is not allowed.`];
  const { key, shown } = unknownName(name);
  return [key, text.replace('{name}', () => shown)];
}

/**
 * The 422 lines of ajv's errors, by field: the first path segment under the body (or query, path) names
 * the field, `body` when the whole value is wrong. Each line once per field, in ajv's order. Needs the
 * errors of an ajv made with `verbose` (for `x-error`: the schema that failed).
 */
export function inputErrors(errors: readonly ErrorObject[]): Record<string, string[]> {
  const lines: Record<string, string[]> = {};
  const add = (field: string, line: string) => {
    const list = (lines[field] ??= []);
    if (!list.includes(line)) list.push(line);
  };
  for (const e of errors) {
    // An `if` that failed only says its branch failed; the branch's own errors say what is wrong (an
    // if/then/else is how a schema says a hand check's else-if chain: one line per field).
    if (e.keyword === 'if') continue;
    if (e.keyword === 'additionalProperties' && !e.instancePath) {
      add(...unknownLine(e));
      continue;
    }
    const missing = (e.params as Params).missingProperty as string | undefined;
    const path = e.instancePath.split('/');
    const missingSchema = missing
      ? ((e.parentSchema as Params | undefined)?.properties as Params | undefined)?.[missing]
      : undefined;
    // A value inside a field (a list's item, or a property of one, missing or not) that names its own
    // line is named by its place, `ids.2`, `data.0.kind`, as Laravel names it; without one, its field's
    // name and the field's own x-error say it.
    const place = missing ? [...path.slice(1), missing] : path.slice(1);
    const inner = place.length > 1 && ownLine(missing ? missingSchema : e.parentSchema, '', e) !== undefined;
    const field = inner ? place.join('.').slice(0, 100) : (missing ?? (path[1] || 'body'));
    // The name a line of common/server-texts.ts says: the property's own (`kind` of `data.0.kind`).
    const name = inner ? place.filter((segment) => !/^\d+$/.test(segment)).pop()! : field;
    const failed = missing
      ? missingSchema
      : // A value's own schema (the body's own, for the body as a whole), or (for a keyword under it,
        // such as items) the one above it.
        path.length <= 2 || inner
        ? e.parentSchema
        : undefined;
    add(field, ownLine(failed, name, e) ?? describe(e, field));
  }
  return lines;
}
