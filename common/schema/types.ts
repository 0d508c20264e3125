/** The vocabulary of schemas/README.md as TypeScript: what the registry makes of a schema file. */
import type { CompanyAbility } from '../user.ts';

export type Direction = 'asc' | 'desc';
export type FieldType = 'integer' | 'number' | 'string' | 'boolean' | 'object' | 'array';
export const FIXED_OPERATORS = ['=', '!=', '<', '<=', '>', '>='] as const;
/** A condition written in a schema. `null` with = / != means is null / is not null. */
export type FixedCondition = [
  field: string,
  op: (typeof FIXED_OPERATORS)[number],
  value: string | number | boolean | null,
];

export interface Field {
  name: string;
  column: string;
  type: FieldType;
  nullable: boolean;
  format?: string;
  readOnly: boolean;
  writeOnly: boolean;
  filter: boolean;
  sort: boolean;
  me?: 'id' | 'is_operator' | 'categories';
  enumName?: string;
  list: boolean;
  /**
   * x-translated: the field's own column holds the Dutch text, these columns the other languages (the
   * fields `<name>_en` and `<name>_de`); the API reads the field in the caller's language.
   */
  translations?: Record<Exclude<Language, 'nl'>, string>;
  schema: Record<string, unknown>;
}

/** The languages of the apps; Dutch is the default and the language of a translated field's own column. */
export const LANGUAGES = ['nl', 'en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Where a translated text is looked for, in order: German falls back to English, English to Dutch. */
export const LANGUAGE_FALLBACK: Record<Language, readonly Language[]> = {
  nl: ['nl'],
  en: ['en', 'nl'],
  de: ['de', 'en', 'nl'],
};

export type Relation =
  | { kind: 'belongsTo'; name: string; resource: string; key: string }
  | { kind: 'hasMany'; name: string; resource: string; foreignKey: string }
  | { kind: 'belongsToMany'; name: string; resource: string; pivot: string; key: string; relatedKey: string }
  | { kind: 'morphMany'; name: string; resource: string; morph: string }
  | { kind: 'morphTo'; name: string; morph: string; types: Record<string, string> };

export type PortalScope =
  | 'tenant'
  | { company: string }
  | { user: string }
  /**
   * The related record is visible. With `byRole`, the company roles name this resource itself: it is
   * visible only where the client's role in the related record's company reaches it (contracts, seen
   * through their companies, are finance's and the admin's, not every member's). With `whose`, the
   * related record's field of that name must also be the client's own id (a share of a ticket she is
   * the client of, whoever made it).
   */
  | { relation: string; byRole?: boolean; whose?: string }
  | { where: FixedCondition[] }
  | { any: PortalScope[] };

export interface Portal {
  actions: string[];
  /** The field that represents a record to clients, when x-label is not one they may read. */
  label?: string;
  scope: PortalScope;
  /**
   * What a client's own row is (issue 39), for a company role that sees the resource only so: a scope of
   * `user`, `relation` and `any` (a ticket the client is the client of, or one shared with it).
   */
  own?: PortalScope;
  where: FixedCondition[];
  fields?: string[];
  /** The portal list's default columns, in order, when they differ from the fields marked x-list. */
  list?: string[];
  /**
   * A company role's ability (issue 39: `manage_access`, `on_behalf`) without which the portal offers no
   * screen of the resource: no menu entry, and its routes show the access-denied page. What the API
   * answers stays the role's reach and the resource's hooks.
   */
  ability?: CompanyAbility;
}

/**
 * x-invoice-line: how a record becomes a line of its company's draft invoice. Each value is a path: a
 * field of the resource, or `relation.field` through one of its belongsTo relations.
 */
export interface InvoiceLineMapping {
  /** The invoice's company: the first path that is not null. */
  company: string[];
  /** The line's text: the paths that are not empty, joined with ' - '. */
  description: string[];
  /** A number, or `{minutes: path}` for minutes shown as hours. */
  quantity: string | { minutes: string };
  /** The price per unit; null counts as 0. */
  price: string;
  /** The product the line is for, if any. */
  product?: string;
}

/**
 * A tab of a record's detail screen (x-tabs): the rows of a to-many `relation`, or of a `resource`
 * matched by `where` conditions whose `{field}` values come from the record.
 */
export interface DetailTab {
  name: string;
  /** An icon name of src/resources/icons.ts. */
  icon: string;
  relation?: string;
  resource?: string;
  where?: [field: string, op: (typeof FIXED_OPERATORS)[number], value: string | number | boolean][];
  /** The badge: the number of rows, or the sum of a number field shown as minutes or money. */
  badge?: { sum: string; format: 'minutes' | 'money' };
  /** Shown whatever the permissions (SPEC 2: 'its visible flag'). */
  visible?: boolean;
  /** The permission that shows the tab (without prefix); default '<resource>.index'. */
  permission?: string;
  /**
   * A hasMany tab's form in place (issue 18: time on the ticket): these writable fields of the listed
   * resource, above its rows, for a new row of this record (x-default values pre-filled).
   */
  form?: string[];
}

export interface Resource {
  name: string;
  title: string;
  table: string;
  tenant: boolean;
  fixedWhere: FixedCondition[];
  actions: string[];
  defaultSort: [string, Direction];
  search: string[];
  /** x-global-search: what the back office's app-bar search looks in, and where the group shows. */
  globalSearch?: GlobalSearch;
  label: string;
  morphType?: string;
  orderField: string;
  /** x-owner: the field that holds the creating user's id, set by the server. */
  owner?: string;
  /** x-personal: a boolean field; a row with it true is seen and written by its owner (x-owner) alone. */
  personal?: string;
  /**
   * x-own-rows: an action name; every row is its owner's (x-owner) alone, except to a caller who holds
   * `tenant.<resource>.<action>` (API tokens: an operator's own, all of them for second line).
   */
  ownRows?: string;
  relations: Record<string, Relation>;
  /** x-versions: other shapes of a list row, by version number: output name -> field or `{field}` template. */
  versions: Record<string, Record<string, string>>;
  portal?: Portal;
  /**
   * x-record-link: the relations a link to one record (a quote e-mail's token) opens besides the
   * record: to-many ones are its lines, to-one ones show the related record's label only.
   */
  recordLink: string[];
  /** x-tabs: the tab bar of the back office's detail screen. */
  tabs: DetailTab[];
  invoiceLine?: InvoiceLineMapping;
  /** x-menu: where the resource sits in each app's menu; an app it does not name gives it no menu place. */
  menu: Partial<Record<MenuApp, MenuPlace>>;
  /** x-icon: a name of src/resources/icons.ts (an MUI icon's name), or any icon's SVG path data. */
  icon?: string;
  /** x-bulk: what the back office's list offers on many selected records at once. */
  bulk?: BulkActions;
  /** x-views: the back office list's views of its own, one of them the default (schemas/README.md). */
  views: ListViewDefinition[];
  /**
   * x-pickable: the conditions a record meets to be offered as a new value in a form's, a quick
   * action's or the bulk bar's selector (operators: not archived). Filters and the current value of
   * a record are not narrowed by it.
   */
  pickable: FixedCondition[];
  /**
   * x-one-default: at most one record per group has this boolean field true; storing or updating one
   * with it set clears it on the others of the group, in the same transaction (SPEC 4: one default view).
   */
  oneDefault?: OneDefault;
  /**
   * x-flags: boolean keys an update's body may carry that are no field (no column): taken out of the
   * body and given to the resource's hooks (`HookContext.flags`), by name with their description.
   */
  flags: Record<string, string>;
  /** x-i18n: the resource's words per language (schemas/README.md, "Labels"). */
  labels: Partial<Record<LabelLocale, ResourceLabels>>;
  fields: Record<string, Field>;
  required: string[];
  /** The schema file as written. */
  schema: Record<string, any>;
}

/** x-one-default (schemas/README.md): the boolean `field` is true on at most one record per `per` group. */
export interface OneDefault {
  field: string;
  per: string[];
}

/** x-global-search (schemas/README.md): string fields searched as substrings; groups by `order`. */
export interface GlobalSearch {
  fields: string[];
  /** The group's place among the results, smallest first. */
  order: number;
}

/**
 * x-views: a view of the back office's list that every user has: `where` conditions as
 * `[field, '=', value | 'me']`, `[field, 'in', [values]]` or, through a belongsTo relation,
 * `['relation.field', 'in' | 'not in', [values]]` (the list filters on the relation's key with the ids
 * of the related records that match). `default`: the view a user without a choice of their own starts on.
 */
export interface ListViewDefinition {
  name: string;
  /** `date`: the field's date filter preset (common/schema/date-presets.ts), turned into bounds when asked. */
  where: [path: string, op: '=' | 'in' | 'not in' | 'date', value: unknown][];
  default?: boolean;
}

/** x-bulk: the fields a selection's records can be set to one value, and the actions run on all of them. */
export interface BulkActions {
  fields: string[];
  actions: string[];
}

export type MenuApp = 'backoffice' | 'portal';
/** The back office's menu groups, in their order. */
export const MENU_GROUPS = ['daily', 'sales', 'settings'] as const;
export type MenuGroup = (typeof MENU_GROUPS)[number];
export interface MenuPlace {
  /** The back office's group; the portal's menu has none. Unset: settings. */
  group?: MenuGroup;
  /** Place within the group (the portal: within the menu), smallest first; unset: after those with one. */
  order?: number;
}

/** The languages every schema's words are written in. */
export const LABEL_LOCALES = ['nl', 'en', 'de'] as const;
export type LabelLocale = (typeof LABEL_LOCALES)[number];

/** x-i18n of one language: react-admin's `resources.<name>` tree (name as 'One |||| Many', list's empty text). */
export interface ResourceLabels {
  name: string;
  empty: string;
  /** Every field and relation by name. */
  fields: Record<string, string>;
  /** Further texts of this resource's screens (tab titles, badge hints), looked up under the same tree. */
  [more: string]: unknown;
}

export const CRUD_ACTIONS = ['index', 'show', 'store', 'update', 'destroy'] as const;

/** An x-enum lookup list (schemas/enums): its values and their labels per language. */
export interface Enumeration {
  description?: string;
  values: { id: number | string; name: string }[];
  /** Each value's label per language, by id. */
  'x-i18n'?: Partial<Record<LabelLocale, Record<string, string>>>;
}
