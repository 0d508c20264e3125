/**
 * The checks of a schema against the others, run once at start (registry.ts): fail there, not at the
 * first request, when a schema names a field, relation, resource or enumeration that does not exist.
 */
import type {
  DetailTab,
  Enumeration,
  FixedCondition,
  GlobalSearch,
  InvoiceLineMapping,
  MenuApp,
  MenuPlace,
  PortalScope,
  Relation,
  Resource,
} from './types.ts';
import { FIXED_OPERATORS, MENU_GROUPS } from './types.ts';
import { COMPANY_ABILITIES } from '../user.ts';
import { isCompleteDatePreset } from './date-presets.ts';
import { badgeOf, inDetail, inputOf, widthOf } from './display.ts';
import { portalResourceReachOf } from './portal-resources.ts';

/** What the checks read of the registry being built: its resources by name and its enumerations. */
export interface SchemaLookup {
  get(name: string): Resource | undefined;
  readonly enums: Readonly<Record<string, Enumeration>>;
}

/**
 * x-views: unique names, at most one default, conditions on fields or belongsTo relations' fields; a
 * `date` condition names a date field and one of the date filter's presets (a time relative to when the
 * list asks, which the app turns into plain bounds: no expression reaches the server).
 */
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
        if (op === 'date') {
          const format = r.fields[first!]?.format;
          if (format !== 'date' && format !== 'date-time')
            fail(`x-views.${view.name}: date takes a date field (${path})`);
          if (!isCompleteDatePreset(value)) fail(`x-views.${view.name}: ${path} needs a date filter preset`);
          continue;
        }
      } else {
        const rel = r.relations[first!];
        if (rel?.kind !== 'belongsTo') fail(`x-views.${view.name}: ${first} is no belongsTo relation`);
        if (op === '=') fail(`x-views.${view.name}: a relation's field takes in or not in (${path})`);
      }
      if (op === 'date') fail(`x-views.${view.name}: date only on a field of the resource (${path})`);
      if (!['=', 'in', 'not in'].includes(op)) fail(`x-views.${view.name} has unknown operator ${op}`);
      if (op !== '=' && !Array.isArray(value)) fail(`x-views.${view.name}: ${op} takes a list (${path})`);
    }
  }
  if (r.views.filter((v) => v.default).length > 1) fail('x-views: at most one default view');
}

/** Fail at start, not at the first request, when a schema names something that does not exist. */
export function checkReferences(reg: SchemaLookup, r: Resource): void {
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
  // A flag travels beside the fields of a body: a flag named as a field would hide it.
  for (const flag of Object.keys(r.flags)) if (r.fields[flag]) fail(`x-flags: ${flag} is a field`);
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
  if (r.personal) {
    field(r.personal, 'x-personal');
    if (!r.owner) fail('x-personal needs x-owner: whose the personal rows are');
    if (r.fields[r.personal] && r.fields[r.personal]!.type !== 'boolean')
      fail(`x-personal names ${r.personal}, which is not a boolean`);
  }
  if (r.ownRows) {
    if (!r.owner) fail('x-own-rows needs x-owner: whose the rows are');
    if (!r.actions.includes(r.ownRows)) fail(`x-own-rows names ${r.ownRows}, which is not in x-actions`);
  }
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
    const state = badgeOf(f)?.state;
    if (state !== undefined) field(state, `x-badge of ${f.name}`);
    inDetail(f); // x-detail may only be false: a typo fails at start, not on a screen
    widthOf(f); // likewise a width that is no number of pixels
    inputOf(f); // and an input the forms do not have
    portalResourceReachOf(f); // and a list of portal resources that does not say which
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
        const rel = Object.hasOwn(r.relations, scope.relation) ? r.relations[scope.relation] : undefined;
        if (!rel) return fail(`x-portal.scope names unknown relation ${scope.relation}`);
        if (scope.whose !== undefined) {
          const target = rel.kind === 'morphTo' ? undefined : reg.get(rel.resource);
          if (!target) fail(`x-portal.scope.whose: ${scope.relation} must lead to one resource`);
          else if (typeof scope.whose !== 'string' || !Object.hasOwn(target.fields, scope.whose))
            fail(`x-portal.scope.whose: ${target.name} has no field ${String(scope.whose)}`);
        }
        if (scope.byRole === undefined) return;
        if (typeof scope.byRole !== 'boolean') fail('x-portal.scope.byRole is true or false');
        // The role is read in the related record's company: that record must be scoped by one.
        const target = rel.kind === 'morphTo' ? undefined : reg.get(rel.resource);
        const targetScope = target?.portal?.scope;
        if (typeof targetScope !== 'object' || !('company' in targetScope))
          fail(`x-portal.scope.byRole: ${scope.relation} must lead to a resource with a company scope`);
        return;
      }
      if ('where' in scope) return scope.where.forEach(condition('x-portal.scope.where'));
      if ('any' in scope) return scope.any.forEach(checkScope);
      fail('x-portal.scope is not a scope');
    };
    checkScope(r.portal.scope);
    if (r.portal.own !== undefined) {
      checkScope(r.portal.own);
      // Own rows are a part of the company's rows: the company side is the role's, never own's.
      const hasCompany = (scope: PortalScope): boolean =>
        typeof scope === 'object' && ('company' in scope || ('any' in scope && scope.any.some(hasCompany)));
      if (hasCompany(r.portal.own)) fail('x-portal.own cannot name a company scope');
      if (!hasCompany(r.portal.scope)) fail('x-portal.own needs a company scope in x-portal.scope');
    }
    r.portal.where.forEach(condition('x-portal.where'));
    r.portal.fields?.forEach((f) => field(f, 'x-portal.fields'));
    for (const f of r.portal.list ?? []) {
      field(f, 'x-portal.list');
      if (r.portal.fields && !r.portal.fields.includes(f))
        fail(`x-portal.list has ${f}, which clients cannot read`);
    }
    if (r.portal.ability !== undefined && !COMPANY_ABILITIES.includes(r.portal.ability))
      fail(`x-portal.ability is not one of ${COMPANY_ABILITIES.join(', ')}`);
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
function checkInvoiceLine(reg: SchemaLookup, r: Resource, m: InvoiceLineMapping): void {
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

function checkTab(reg: SchemaLookup, r: Resource, tab: DetailTab, fail: (what: string) => never): void {
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
