/**
 * One schema file -> a Resource: its fields, relations and `x-` settings read into the typed shape the
 * server and the apps use. Whether the names it holds exist is the registry's check (checks.ts).
 */
import type { Field, FieldType, FixedCondition, Portal, Relation, Resource } from './types.ts';
import { CRUD_ACTIONS } from './types.ts';
import { jsonTypes } from './json-types.ts';

const FIELD_TYPES: FieldType[] = ['integer', 'number', 'string', 'boolean', 'object', 'array'];

function toField(name: string, s: Record<string, any>): Field {
  const types = jsonTypes(s);
  const type = types.find((t) => t !== 'null') as FieldType;
  if (!FIELD_TYPES.includes(type)) throw new Error(`field ${name}: unsupported type ${String(s.type)}`);
  return {
    name,
    column: s['x-column'] ?? name,
    type,
    nullable: types.includes('null'),
    format: s.format,
    readOnly: s.readOnly === true,
    writeOnly: s.writeOnly === true,
    filter: s['x-filter'] === true,
    sort: s['x-sort'] === true,
    me: s['x-me'],
    enumName: s['x-enum'],
    list: s['x-list'] === true,
    schema: s,
  };
}

export function toResource(schema: Record<string, any>): Resource {
  const name: string = schema.$id;
  try {
    const fields: Record<string, Field> = {};
    for (const [fieldName, s] of Object.entries<Record<string, any>>(schema.properties ?? {})) {
      if (!/^[a-z][a-z0-9_]*$/.test(fieldName)) throw new Error(`field name ${fieldName} is not snake_case`);
      fields[fieldName] = toField(fieldName, s);
    }
    if (!fields.id) throw new Error('every resource needs an integer id');
    for (const field of Object.values(fields)) {
      if (field.schema['x-translated'] === true) field.translations = translationColumns(field, fields);
    }
    const relations: Record<string, Relation> = {};
    for (const [relName, r] of Object.entries<Record<string, any>>(schema['x-relations'] ?? {})) {
      relations[relName] = { ...r, name: relName } as Relation;
    }
    const portalSchema = schema['x-portal'];
    const portal: Portal | undefined = portalSchema && {
      actions: portalSchema.actions ?? [],
      scope: portalSchema.scope,
      own: portalSchema.own,
      where: (portalSchema.where ?? []) as FixedCondition[],
      fields: portalSchema.fields,
      label: portalSchema.label,
      list: portalSchema.list,
      ability: portalSchema.ability,
    };
    return {
      name,
      title: schema.title ?? name,
      table: schema['x-table'] ?? name.replace(/-/g, '_'),
      tenant: schema['x-tenant'] ?? true,
      fixedWhere: schema['x-where'] ?? [],
      actions: schema['x-actions'] ?? [...CRUD_ACTIONS],
      defaultSort: schema['x-default-sort'] ?? ['id', 'asc'],
      search: schema['x-search'] ?? [],
      globalSearch: schema['x-global-search'],
      label: schema['x-label'] ?? 'name',
      morphType: schema['x-morph-type'],
      orderField: schema['x-order-field'] ?? 'order',
      owner: schema['x-owner'],
      personal: schema['x-personal'],
      ownRows: schema['x-own-rows'],
      relations,
      versions: schema['x-versions'] ?? {},
      tabs: schema['x-tabs'] ?? [],
      portal,
      recordLink: schema['x-record-link'] ?? [],
      invoiceLine: schema['x-invoice-line'],
      menu: schema['x-menu'] ?? {},
      icon: schema['x-icon'],
      pickable: schema['x-pickable'] ?? [],
      oneDefault: schema['x-one-default'],
      flags: schema['x-flags'] ?? {},
      bulk: schema['x-bulk'] ? { fields: [], actions: [], ...schema['x-bulk'] } : undefined,
      views: schema['x-views'] ?? [],
      labels: schema['x-i18n'] ?? {},
      fields,
      required: schema.required ?? [],
      schema,
    };
  } catch (error) {
    throw new Error(`schemas/${name}.json: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * x-translated on a string field: its siblings `<name>_en` and `<name>_de` hold the other languages
 * (nullable strings, so a missing translation falls back).
 */
function translationColumns(field: Field, fields: Record<string, Field>): Field['translations'] {
  if (field.type !== 'string')
    throw new Error(`field ${field.name}: only a string field can be x-translated`);
  const column = (language: 'en' | 'de') => {
    const sibling = fields[`${field.name}_${language}`];
    if (!sibling || sibling.type !== 'string' || !sibling.nullable)
      throw new Error(
        `field ${field.name} is x-translated: it needs a nullable string ${field.name}_${language}`,
      );
    return sibling.column;
  };
  return { en: column('en'), de: column('de') };
}
