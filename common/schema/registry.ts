import type {
  DetailTab,
  Field,
  FieldType,
  FixedCondition,
  GlobalSearch,
  InvoiceLineMapping,
  LabelLocale,
  MenuApp,
  MenuPlace,
  Portal,
  PortalScope,
  Relation,
  Resource,
} from './types.ts';
import { CRUD_ACTIONS, FIXED_OPERATORS, MENU_GROUPS } from './types.ts';

/** Schemas -> Resources, checked against each other. Pure: the server and the browser apps both use it. */
export interface Enumeration {
  description?: string;
  values: { id: number | string; name: string }[];
  /** Each value's label per language, by id. */
  'x-i18n'?: Partial<Record<LabelLocale, Record<string, string>>>;
}

/** Every resource of schemas/, checked against each other once at start. */
export class Registry {
  readonly resources: ReadonlyMap<string, Resource>;
  readonly enums: Readonly<Record<string, Enumeration>>;

  constructor(resources: Resource[], enums: Record<string, Enumeration>) {
    this.resources = new Map(resources.map((r) => [r.name, r]));
    this.enums = enums;
    for (const resource of resources) checkReferences(this, resource);
  }

  get(name: string): Resource | undefined {
    return this.resources.get(name);
  }

  require(name: string): Resource {
    const resource = this.resources.get(name);
    if (!resource) throw new Error(`Unknown resource ${name}`);
    return resource;
  }

  /** Resources whose x-morph-type is set, by that type. */
  byMorphType(type: string): Resource | undefined {
    for (const r of this.resources.values()) if (r.morphType === type) return r;
    return undefined;
  }

  /** Every permission name the schemas define: tenant.<r>.<action> and portal.<r>.<action>. */
  permissionNames(): string[] {
    const names: string[] = [];
    for (const r of this.resources.values()) {
      for (const a of r.actions) names.push(`tenant.${r.name}.${a}`);
      for (const a of r.portal?.actions ?? []) names.push(`portal.${r.name}.${a}`);
    }
    return names;
  }
}

const FIELD_TYPES: FieldType[] = ['integer', 'number', 'string', 'boolean', 'object', 'array'];

function toField(name: string, s: Record<string, any>): Field {
  const types: string[] = Array.isArray(s.type) ? s.type : [s.type];
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
      where: (portalSchema.where ?? []) as FixedCondition[],
      fields: portalSchema.fields,
      label: portalSchema.label,
      list: portalSchema.list,
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

/** x-views: unique names, at most one default, conditions on fields or belongsTo relations' fields. */
function checkViews(r: Resource, fail: (what: string) => never): void {
  const names = new Set<string>();
  for (const view of r.views) {
    if (!view.name || names.has(view.name)) fail(`x-views: a view needs a name of its own (${view.name})`);
    names.add(view.name);
    for (const [path, op, value] of view.where) {
      const [first, second] = path.split('.');
      if (second === undefined) {
        if (!r.fields[first!]?.filter) fail(`x-views.${view.name} names unknown or unfiltered field ${path}`);
        if (op === 'not in') fail(`x-views.${view.name}: 'not in' only through a relation (${path})`);
      } else {
        const rel = r.relations[first!];
        if (rel?.kind !== 'belongsTo') fail(`x-views.${view.name}: ${first} is no belongsTo relation`);
        if (op === '=') fail(`x-views.${view.name}: a relation's field takes in or not in (${path})`);
      }
      if (!['=', 'in', 'not in'].includes(op)) fail(`x-views.${view.name} has unknown operator ${op}`);
      if (op !== '=' && !Array.isArray(value)) fail(`x-views.${view.name}: ${op} takes a list (${path})`);
    }
  }
  if (r.views.filter((v) => v.default).length > 1) fail('x-views: at most one default view');
}

/** Fail at start, not at the first request, when a schema names something that does not exist. */
function checkReferences(reg: Registry, r: Resource): void {
  const fail = (what: string) => {
    throw new Error(`schemas/${r.name}.json: ${what}`);
  };
  const field = (name: string, where: string) => {
    if (!r.fields[name]) fail(`${where} names unknown field ${name}`);
  };
  field(r.defaultSort[0], 'x-default-sort');
  if (!['asc', 'desc'].includes(r.defaultSort[1])) fail('x-default-sort direction must be asc or desc');
  r.search.forEach((f) => field(f, 'x-search'));
  if (r.globalSearch) checkGlobalSearch(r, r.globalSearch, fail);
  const condition =
    (where: string) =>
    ([f, op, value]: FixedCondition) => {
      field(f, where);
      if (!FIXED_OPERATORS.includes(op)) fail(`${where} has unknown operator ${String(op)}`);
      if (value === null && op !== '=' && op !== '!=') fail(`${where}: null only works with = and !=`);
    };
  r.fixedWhere.forEach(condition('x-where'));
  if (r.oneDefault) {
    if (r.fields[r.oneDefault.field]?.type !== 'boolean')
      fail(`x-one-default: ${r.oneDefault.field} is no boolean field`);
    (r.oneDefault.per ?? fail('x-one-default needs per: [fields]')).forEach((f) => field(f, 'x-one-default'));
  }
  r.pickable.forEach(condition('x-pickable'));
  // The selectors send x-pickable as a list filter, which the API takes on x-filter fields only.
  for (const [f] of r.pickable)
    if (r.fields[f] && !r.fields[f].filter) fail(`x-pickable names ${f}, which has no x-filter`);
  // x-where values are written on insert and update, so a view on a shared table can only fix a value;
  // a resource nobody writes through the API may narrow its rows otherwise (mail not yet sent).
  const written = r.actions.includes('store') || r.actions.includes('update');
  if (written && r.fixedWhere.some(([, op]) => op !== '='))
    fail('x-where only takes = conditions on a resource with store or update');
  r.required.forEach((f) => field(f, 'required'));
  if (r.label !== 'id' && !r.fields[r.label]) fail(`x-label names unknown field ${r.label}`);
  if (r.owner) field(r.owner, 'x-owner');
  for (const [version, shape] of Object.entries(r.versions)) {
    if (!/^[2-9]\d*$/.test(version)) fail(`x-versions: ${version} is not a version above 1`);
    for (const source of Object.values(shape))
      versionSourceFields(source).forEach((f) => field(f, 'x-versions'));
  }
  if (r.invoiceLine) checkInvoiceLine(reg, r, r.invoiceLine);
  r.tabs.forEach((tab) => checkTab(reg, r, tab, fail));
  checkMenu(r.menu, fail);
  if (r.bulk) {
    r.bulk.fields.forEach((f) => field(f, 'x-bulk.fields'));
    for (const a of r.bulk.actions)
      if (!r.actions.includes(a)) fail(`x-bulk.actions names ${a}, which is not in x-actions`);
    if (r.bulk.fields.length && !r.actions.includes('update')) fail('x-bulk.fields needs the update action');
  }
  checkViews(r, fail);
  for (const f of Object.values(r.fields)) {
    if (f.enumName && !reg.enums[f.enumName]) fail(`field ${f.name} names unknown enumeration ${f.enumName}`);
  }
  for (const rel of Object.values(r.relations)) {
    const related = (n: string) => reg.get(n) ?? fail(`relation ${rel.name} names unknown resource ${n}`);
    switch (rel.kind) {
      case 'belongsTo':
        related(rel.resource);
        field(rel.key, `relation ${rel.name}`);
        break;
      case 'hasMany': {
        const target = related(rel.resource) as Resource;
        if (!target.fields[rel.foreignKey])
          fail(`relation ${rel.name}: ${rel.resource} has no ${rel.foreignKey}`);
        break;
      }
      case 'belongsToMany':
        related(rel.resource);
        if (!rel.pivot || !rel.key || !rel.relatedKey)
          fail(`relation ${rel.name} needs pivot, key, relatedKey`);
        break;
      case 'morphMany': {
        const target = related(rel.resource) as Resource;
        if (!r.morphType) fail(`relation ${rel.name} needs x-morph-type on ${r.name}`);
        if (!target.fields[`${rel.morph}_type`] || !target.fields[`${rel.morph}_id`]) {
          fail(`relation ${rel.name}: ${rel.resource} has no ${rel.morph}_type/${rel.morph}_id`);
        }
        break;
      }
      case 'morphTo':
        field(`${rel.morph}_type`, `relation ${rel.name}`);
        field(`${rel.morph}_id`, `relation ${rel.name}`);
        Object.values(rel.types).forEach(related);
        break;
      default:
        fail(`relation ${(rel as Relation).name} has unknown kind ${(rel as any).kind}`);
    }
  }
  for (const name of r.recordLink) {
    const rel = Object.hasOwn(r.relations, name) ? r.relations[name] : undefined;
    if (!rel) fail(`x-record-link names unknown relation ${name}`);
    else if (rel.kind !== 'belongsTo' && rel.kind !== 'hasMany' && rel.kind !== 'morphMany')
      fail(`x-record-link: ${name} must be a belongsTo, hasMany or morphMany relation`);
    else if (!reg.get(rel.resource)?.portal)
      fail(`x-record-link: ${name} leads to ${rel.resource}, which has no x-portal`);
  }
  if (r.recordLink.length && !r.portal) fail('x-record-link needs x-portal: a link holder sees the portal');
  if (r.portal) {
    const checkScope = (scope: PortalScope): void => {
      if (scope === 'tenant') return;
      if (typeof scope !== 'object' || scope === null) return fail('x-portal.scope is not a scope');
      if ('company' in scope) return field(scope.company, 'x-portal.scope');
      if ('user' in scope) return field(scope.user, 'x-portal.scope');
      if ('relation' in scope) {
        if (!r.relations[scope.relation]) fail(`x-portal.scope names unknown relation ${scope.relation}`);
        return;
      }
      if ('any' in scope) return scope.any.forEach(checkScope);
      fail('x-portal.scope is not a scope');
    };
    checkScope(r.portal.scope);
    r.portal.where.forEach(condition('x-portal.where'));
    r.portal.fields?.forEach((f) => field(f, 'x-portal.fields'));
    for (const f of r.portal.list ?? []) {
      field(f, 'x-portal.list');
      if (r.portal.fields && !r.portal.fields.includes(f))
        fail(`x-portal.list has ${f}, which clients cannot read`);
    }
    if (r.portal.label) field(r.portal.label, 'x-portal.label');
    const portalLabel = r.portal.label ?? r.label;
    if (r.portal.fields && portalLabel !== 'id' && !r.portal.fields.includes(portalLabel)) {
      fail(
        `clients cannot read the label field ${portalLabel}: add it to x-portal.fields or set x-portal.label`,
      );
    }
    for (const a of r.portal.actions) {
      if (!r.actions.includes(a)) fail(`x-portal.actions has ${a}, which x-actions lacks`);
    }
    const portalFields = r.portal.fields;
    for (const shape of Object.values(r.versions)) {
      for (const f of Object.values(shape).flatMap(versionSourceFields)) {
        if (portalFields && !portalFields.includes(f))
          fail(`x-versions reads ${f}, which clients cannot read`);
      }
    }
  }
}

/** x-invoice-line paths name fields of the resource or of a belongsTo relation; the actions exist. */
function checkInvoiceLine(reg: Registry, r: Resource, m: InvoiceLineMapping): void {
  const fail = (what: string): never => {
    throw new Error(`schemas/${r.name}.json: x-invoice-line ${what}`);
  };
  const path = (p: unknown, where: string) => {
    if (typeof p !== 'string') return fail(`${where} must be a path`);
    const [first, second, ...rest] = p.split('.');
    if (rest.length) fail(`${where}: ${p} has more than one dot`);
    if (second === undefined) {
      if (!r.fields[first!]) fail(`${where} names unknown field ${p}`);
      return;
    }
    const rel = r.relations[first!];
    if (rel?.kind !== 'belongsTo') return fail(`${where}: ${first} is not a belongsTo relation`);
    if (!reg.get(rel.resource)?.fields[second]) fail(`${where} names unknown field ${p}`);
  };
  if (!Array.isArray(m.company) || !m.company.length) fail('company must be a list of paths');
  m.company.forEach((p) => path(p, 'company'));
  if (!Array.isArray(m.description) || !m.description.length) fail('description must be a list of paths');
  m.description.forEach((p) => path(p, 'description'));
  path(typeof m.quantity === 'object' && m.quantity ? m.quantity.minutes : m.quantity, 'quantity');
  path(m.price, 'price');
  if (m.product !== undefined) path(m.product, 'product');
  if (!r.fields.invoice_id) fail('needs an invoice_id field');
  for (const a of ['invoice', 'deinvoice']) if (!r.actions.includes(a)) fail(`needs the ${a} action`);
}

function checkGlobalSearch(r: Resource, search: GlobalSearch, fail: (what: string) => never): void {
  if (!Array.isArray(search.fields) || search.fields.length === 0)
    fail('x-global-search: fields is a list of at least one field');
  if (!Number.isFinite(search.order)) fail('x-global-search: order is a number');
  if (!r.actions.includes('index')) fail('x-global-search: the resource needs the index action');
  for (const name of search.fields) {
    // Substring search on text: a trigram index (a migration) keeps it off a sequential scan.
    if (r.fields[name]?.type !== 'string') fail(`x-global-search names ${name}, which is not a string field`);
  }
}

function checkMenu(menu: Partial<Record<MenuApp, MenuPlace>>, fail: (what: string) => never): void {
  for (const [app, place] of Object.entries(menu)) {
    if (app !== 'backoffice' && app !== 'portal') fail(`x-menu: unknown app ${app}`);
    if (place.order !== undefined && !Number.isFinite(place.order)) fail(`x-menu ${app}: order is a number`);
    if (place.group !== undefined && (app === 'portal' || !MENU_GROUPS.includes(place.group)))
      fail(`x-menu ${app}: group is one of ${MENU_GROUPS.join(', ')} (back office only)`);
  }
}

/** The resource whose rows a tab lists: the relation's, or the one it names. */
export function tabResource(r: Resource, tab: DetailTab): string | undefined {
  const relation = tab.relation === undefined ? undefined : r.relations[tab.relation];
  return relation && 'resource' in relation ? relation.resource : tab.resource;
}

function checkTab(reg: Registry, r: Resource, tab: DetailTab, fail: (what: string) => never): void {
  const where = `x-tabs ${tab.name}`;
  if (!tab.name || !tab.icon) fail(`${where}: a tab needs a name and an icon`);
  if ((tab.relation === undefined) === (tab.resource === undefined))
    fail(`${where}: give a relation or a resource`);
  const relation = tab.relation === undefined ? undefined : r.relations[tab.relation];
  if (
    tab.relation !== undefined &&
    (!relation || (relation.kind !== 'hasMany' && relation.kind !== 'morphMany'))
  )
    fail(`${where}: ${tab.relation} is not a hasMany or morphMany relation`);
  const target = reg.get(tabResource(r, tab) ?? '') ?? fail(`${where}: unknown resource ${tab.resource}`);
  for (const [f, op, value] of tab.where ?? []) {
    if (!target.fields[f]?.filter) fail(`${where}: ${f} is not a filterable field of ${target.name}`);
    if (!FIXED_OPERATORS.includes(op)) fail(`${where}: unknown operator ${String(op)}`);
    const text = String(value);
    if (text.includes('{'))
      for (const name of versionSourceFields(text))
        if (!r.fields[name]) fail(`${where}: {${name}} is not a field of ${r.name}`);
  }
  if (tab.resource !== undefined && !tab.where?.length)
    fail(`${where}: a resource tab needs where conditions`);
  if (tab.form !== undefined) {
    if (relation?.kind !== 'hasMany') fail(`${where}: a form needs a hasMany relation`);
    if (!Array.isArray(tab.form) || !tab.form.length) fail(`${where}: form is a list of field names`);
    for (const f of tab.form) {
      const field = target.fields[f];
      if (!field || field.readOnly) fail(`${where}: form: ${f} is not a writable field of ${target.name}`);
    }
  }
  if (tab.badge) {
    const sum = target.fields[tab.badge.sum];
    if (!tab.relation) fail(`${where}: a sum badge needs a relation`);
    if (!sum || (sum.type !== 'integer' && sum.type !== 'number'))
      fail(`${where}: ${tab.badge.sum} is not a number field of ${target.name}`);
    if (tab.badge.format !== 'minutes' && tab.badge.format !== 'money')
      fail(`${where}: badge format is minutes or money`);
  }
}

/** The fields an x-versions value reads: a field name, or every `{field}` of a template. */
export function versionSourceFields(source: string): string[] {
  return source.includes('{') ? [...source.matchAll(/\{([a-z_][a-z0-9_]*)\}/g)].map((m) => m[1]!) : [source];
}
