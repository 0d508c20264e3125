/**
 * The vocabulary every module of the OpenAPI document shares: a schema, a reference to a component
 * added with addSchema, a list of names written as code.
 */

export type Schema = Record<string, unknown>;

/** A reference, in a route schema, to a component added with addSchema. */
export const schemaRef = (name: string) => ({ $ref: `${name}#` });
export const code = (items: readonly string[]) =>
  items.length ? items.map((i) => `\`${i}\``).join(', ') : 'none';
