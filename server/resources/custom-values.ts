/**
 * Custom fields (SPEC 3) sent with a record: `custom_fields: { <name>: value }` in the body of a create or
 * update of a resource that owns polymorphic rows (x-morph-type). The names are checked against the
 * tenant's custom-field definitions for that type, the values against each field's type, and the values
 * are written as custom values in the record's own transaction. Clients must fill required fields when
 * they create a record (the portal's form marks them); operators may complete them later.
 */
import type { DbTransaction } from '../db/database.ts';
import type { AuthContext } from '../auth/context.ts';
import { ValidationError } from '../http/errors.ts';
import { isPortalCaller } from '../query/visibility.ts';
import type { Resource } from '../../common/schema/types.ts';
import { serverText } from '../../common/server-texts.ts';

export const CUSTOM_FIELDS_KEY = 'custom_fields';
const MAX_LENGTH = 10_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TEXT = 0;
const SELECT = 1;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Takes `custom_fields` out of a body so that the record's own fields validate as before. */
export function takeCustomFields(
  resource: Resource,
  body: unknown,
): { body: unknown; values: Record<string, unknown> | undefined } {
  if (!resource.morphType || !isObject(body) || !(CUSTOM_FIELDS_KEY in body))
    return { body, values: undefined };
  const { [CUSTOM_FIELDS_KEY]: values, ...rest } = body;
  if (!isObject(values)) {
    throw new ValidationError({
      [CUSTOM_FIELDS_KEY]: ['custom_fields must map custom field names to values.'],
    });
  }
  return { body: rest, values };
}

export interface Definition {
  id: number;
  name: string;
  title: string;
  type: number;
  options: { name: string }[];
  is_required: boolean;
}

/** A custom value a write changed, by its field's title (a ticket's history tells it). */
export interface CustomValueChange {
  title: string;
  from: string | null;
  to: string | null;
}

/** A sent value as stored text, or null for "no value". */
function asText(value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') return undefined;
  return value.trim() === '' ? null : value;
}

/** What is wrong with a value for the field (too long, no option of a select, no date), if anything. */
export function problemWith(definition: Definition, value: string): string | undefined {
  if (value.length > MAX_LENGTH) return `${definition.title} may be at most ${MAX_LENGTH} characters long.`;
  if (definition.type === SELECT && !definition.options.some((o) => o.name === value)) {
    return serverText('selected_invalid', { field: definition.title });
  }
  if (definition.type !== TEXT && definition.type !== SELECT && !DATE.test(value)) {
    return `${definition.title} must be a date (YYYY-MM-DD).`;
  }
  return undefined;
}

export async function writeCustomValues(
  trx: DbTransaction,
  auth: AuthContext,
  resource: Resource,
  recordId: number,
  values: Record<string, unknown> | undefined,
  forCreate: boolean,
): Promise<CustomValueChange[]> {
  const morphType = resource.morphType;
  const mustCheckRequired = forCreate && isPortalCaller(auth);
  if (!morphType || (!values && !mustCheckRequired)) return [];
  const definitions = (await trx
    .selectFrom('custom_fields')
    .select(['id', 'name', 'title', 'type', 'options', 'is_required'])
    .where('tenant_id', '=', auth.tenantId)
    .where('morphable_type', '=', morphType)
    .execute()) as Definition[];
  const given = values ?? {};
  const errors: Record<string, string[]> = {};
  const key = (name: string) => `${CUSTOM_FIELDS_KEY}.${name.slice(0, 100)}`;
  for (const name of Object.keys(given)) {
    if (!definitions.some((d) => d.name === name))
      errors[key(name)] = [serverText('custom_field_unknown', { name: name.slice(0, 100) })];
  }
  const writes: { definition: Definition; value: string | null }[] = [];
  for (const definition of definitions) {
    const present = Object.hasOwn(given, definition.name);
    const value = present ? asText(given[definition.name]) : null;
    if (value === undefined) errors[key(definition.name)] = [`${definition.title} must be a text.`];
    else if (value === null && definition.is_required && mustCheckRequired) {
      errors[key(definition.name)] = [serverText('field_required', { field: definition.title })];
    } else if (value !== null && problemWith(definition, value)) {
      errors[key(definition.name)] = [problemWith(definition, value)!];
    } else if (present) writes.push({ definition, value });
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  // A new record holds no values yet: nothing to read.
  const before = forCreate ? new Map() : await storedValues(trx, auth.tenantId, morphType, recordId, writes);
  for (const { definition, value } of writes) {
    const owner = { custom_field_id: definition.id, morphable_type: morphType, morphable_id: recordId };
    if (value === null) {
      await trx
        .deleteFrom('custom_values')
        .where('tenant_id', '=', auth.tenantId)
        .where('custom_field_id', '=', owner.custom_field_id)
        .where('morphable_type', '=', morphType)
        .where('morphable_id', '=', recordId)
        .execute();
      continue;
    }
    await trx
      .insertInto('custom_values')
      .values({ tenant_id: auth.tenantId, ...owner, value })
      .onConflict((oc) =>
        oc
          .columns(['custom_field_id', 'morphable_type', 'morphable_id'])
          .doUpdateSet({ value, updated_at: new Date() }),
      )
      .execute();
  }
  return writes
    .map(({ definition, value }) => ({
      title: definition.title,
      from: before.get(definition.id) ?? null,
      to: value,
    }))
    .filter((c) => c.from !== c.to);
}

/** The values the record holds now of the fields about to be written, by field id (one statement). */
async function storedValues(
  trx: DbTransaction,
  tenantId: number,
  morphType: string,
  recordId: number,
  writes: { definition: Definition }[],
): Promise<Map<number, string | null>> {
  if (writes.length === 0) return new Map();
  const rows = await trx
    .selectFrom('custom_values')
    .select(['custom_field_id', 'value'])
    .where('tenant_id', '=', tenantId)
    .where('morphable_type', '=', morphType)
    .where('morphable_id', '=', recordId)
    .where(
      'custom_field_id',
      'in',
      writes.map((w) => w.definition.id),
    )
    .execute();
  return new Map(rows.map((r) => [Number(r.custom_field_id), r.value]));
}
