/**
 * Multipart bodies checked by their route's own schema. Fastify validates a body before the handler,
 * but a multipart form is a stream the handler reads (files go to the store as they come), so at that
 * point Fastify has no body (null). The route's compiled validator of its `multipart/form-data` schema
 * lets that null pass (route-validation.ts) and judges the form once the handler has read it: `formValues`
 * types its text fields as the schema says (a form's values are text), `validForm` checks them with the
 * same validator and answers the SPEC 422 through the one formatter, as every other route does.
 */
import type { FastifyRequest } from 'fastify';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { MultipartForm } from '../files/upload.ts';
import { jsonTypes } from '../../common/schema/json-types.ts';
import { inputErrors } from '../schema/input-errors.ts';
import { judged, MULTIPART } from './route-validation.ts';
import { baseFieldName, formBoolean, formInteger } from './form-values.ts';

type Schema = Record<string, unknown>;

/** A file part is documented as OpenAPI's binary string, alone or as a list's items. */
const holdsFiles = (schema: Schema | undefined): boolean =>
  schema?.format === 'binary' || (schema?.items as Schema | undefined)?.format === 'binary';

/**
 * One text value as the property's type: a form says true and false as `1`, `true`, `on` and `0`,
 * `false`, ``, and ids as digits. A text that is no such word stays text, which the schema then refuses
 * in the property's own words (its x-error).
 */
function typed(schema: Schema | undefined, value: string): unknown {
  const types = jsonTypes(schema);
  if (value === '' && types.includes('null')) return null;
  if (types.includes('boolean')) return formBoolean(value) ?? value;
  if (types.includes('integer')) return formInteger(value) ?? value;
  if (types.includes('object')) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/**
 * A read form as the value its route's multipart schema judges: text fields by base name (`to[]`,
 * `to[0]` and `to` are one list), typed as the schema's properties say; a file stands in its field as
 * its file name. `byHand`: text sent in a field that holds files, which the values cannot show (whether
 * a part was a file is not in them).
 */
export function formValues(
  schema: Schema,
  form: MultipartForm,
): { values: Record<string, unknown>; byHand: Record<string, string[]> } {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const own = (name: string) => (Object.hasOwn(properties, name) ? properties[name] : undefined);
  const grouped = new Map<string, { values: string[]; listed: boolean }>();
  for (const [name, values] of form.fields) {
    const base = baseFieldName(name);
    const entry = grouped.get(base) ?? { values: [], listed: false };
    entry.values.push(...values);
    entry.listed ||= base !== name;
    grouped.set(base, entry);
  }
  const values: Record<string, unknown> = {};
  const byHand: Record<string, string[]> = {};
  for (const [name, { values: texts, listed }] of grouped) {
    const property = own(name);
    if (holdsFiles(property)) {
      // Kept as sent, so the field is not missing: this line is what is wrong with it.
      byHand[name] = [`The ${name} field must be sent as a file.`];
      values[name] = jsonTypes(property).includes('array') ? texts : texts[texts.length - 1];
    } else if (jsonTypes(property).includes('array')) {
      const items = property!.items as Schema | undefined;
      values[name] = texts.filter((v) => v !== '').map((v) => typed(items, v));
    } else if (!property && listed) {
      values[name] = texts;
    } else {
      values[name] = typed(property, texts[texts.length - 1]!);
    }
  }
  for (const file of form.files) {
    const name = baseFieldName(file.field);
    values[name] = jsonTypes(own(name)).includes('array')
      ? [...((values[name] as string[] | undefined) ?? []), file.name]
      : file.name;
  }
  return { values, byHand };
}

/**
 * The read form's values checked by the route's multipart schema, with the lines of rules it cannot say
 * (`byHand`) for the fields the schema found nothing wrong with: all in one 422, as validInputWith.
 */
export function validForm(
  request: FastifyRequest,
  values: Record<string, unknown>,
  byHand: Record<string, string[]> = {},
): void {
  const bodies = request.getValidationFunction('body') as unknown as
    Record<string, ValidateFunction | undefined> | undefined;
  const validate = bodies?.[MULTIPART];
  if (!validate) throw new Error(`${request.url}: the route has no ${MULTIPART} body schema`);
  validate(values);
  judged(request, inputErrors(validate.errors ?? []), byHand);
}
