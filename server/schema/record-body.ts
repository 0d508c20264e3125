/**
 * The body of a record's create or update as the schema that checks it: the fields a caller may write,
 * closed, with the lines of the record bodies as x-errors (./input-errors.ts). One generator for the
 * check (./validate.ts, BodyValidation, with the caller's side of the fields) and for the document (the
 * `<Title>Create` and `<Title>Update` components, server/docs/components.ts), so the two cannot drift.
 */
import type { Field, Resource } from '../../common/schema/types.ts';

/** The lines of a record body that ajv has no words for, said as x-errors below. */
export const RECORD_BODY_LINES = {
  notObject: 'The request body must be a JSON object.',
  readOnly: (name: string) => `The ${name} field is read-only.`,
  /** `{name}`: the name as ./input-errors.ts (unknownName) shows it. */
  unknown: 'Unknown field {name}.',
};

/** A field's own schema without readOnly and writeOnly, which say who writes, not what is valid. */
function ownSchema(field: Field): Record<string, unknown> {
  const { readOnly: _r, writeOnly: _w, ...rest } = field.schema;
  return rest;
}

export interface RecordBodyOptions {
  /** A create: the resource's required fields among `writable` are required (not the owner: the server fills it in). */
  create: boolean;
  /** A field's schema as the body states it (the document adds descriptions); its own schema by default. */
  fieldSchema?: (field: Field) => Record<string, unknown>;
}

/**
 * The body that writes `writable` of `resource`: any other name is refused, a read-only one as read-only,
 * the rest as unknown (a field another caller may write included: a client is not told what operators
 * may write).
 */
export function recordBodySchema(
  resource: Resource,
  writable: readonly Field[],
  { create, fieldSchema = ownSchema }: RecordBodyOptions,
): Record<string, unknown> {
  const names = new Set(writable.map((f) => f.name));
  const readOnly = Object.values(resource.fields).filter((f) => f.readOnly && !names.has(f.name));
  const required = create ? resource.required.filter((n) => names.has(n) && n !== resource.owner) : [];
  return {
    type: 'object',
    properties: {
      ...Object.fromEntries(writable.map((f) => [f.name, fieldSchema(f)])),
      ...Object.fromEntries(
        readOnly.map((f) => [
          f.name,
          { readOnly: true, not: {}, 'x-error': RECORD_BODY_LINES.readOnly(f.name) },
        ]),
      ),
    },
    ...(required.length ? { required } : {}),
    additionalProperties: false,
    'x-error': { type: RECORD_BODY_LINES.notObject, additionalProperties: RECORD_BODY_LINES.unknown },
  };
}
