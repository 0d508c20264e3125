/**
 * An export's columns: which fields, under which headers, and each value as text the way the apps show
 * it (references by their label, euros with two decimals, minutes as HH:MM, dates 'DD MMM YY').
 */
import type { AuthContext } from '../auth/context.ts';
import { ValidationError } from '../http/errors.ts';
import type { Registry } from '../schema/registry.ts';
import type { Field, Resource } from '../../common/schema/types.ts';
import { fieldKind, referenceOf, type FieldKind } from '../../common/schema/field-kind.ts';
import {
  formatDate,
  formatFileSize,
  formatMinutes,
  formatMoney,
  formatQuantity,
} from '../../common/format.ts';
import { isPortalCaller, readableFields } from '../query/visibility.ts';
import type { WithTree } from '../query/tree.ts';
import type { Row } from '../query/relations.ts';
import { PDF_TIME_ZONE } from '../pdf/time.ts';
import type { ExportLocale } from './messages.ts';
import { EXPORT_TEXTS } from './messages.ts';

/** A column as the job stores it: the field and the header the user saw above it. */
export interface ExportColumn {
  name: string;
  label: string;
}

const MAX_COLUMNS = 100;
const MAX_LABEL = 100;

/** The list's default columns: x-list fields (the portal's own x-portal.list for clients). */
function defaultColumns(resource: Resource, auth: AuthContext): string[] {
  const readable = readableFields(resource, auth);
  const portalList = isPortalCaller(auth) ? resource.portal?.list : undefined;
  if (portalList) return portalList.filter((n) => readable.some((f) => f.name === n));
  return readable.filter((f) => f.list).map((f) => f.name);
}

/**
 * The columns of a request: names the caller may read, each once, with an optional header; none sent:
 * the list's default columns under their field names. Anything else is a 422 naming the column.
 */
export function resolveColumns(resource: Resource, auth: AuthContext, raw: unknown): ExportColumn[] {
  const readable = new Map(readableFields(resource, auth).map((f) => [f.name, f]));
  if (raw === undefined || raw === null)
    return defaultColumns(resource, auth).map((name) => ({ name, label: name }));
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_COLUMNS)
    throw new ValidationError({ columns: [`columns must be a list of 1 to ${MAX_COLUMNS} fields.`] });
  const errors: Record<string, string[]> = {};
  const out: ExportColumn[] = [];
  raw.forEach((entry, i) => {
    const { name, label } =
      typeof entry === 'string' ? { name: entry, label: entry } : ((entry ?? {}) as Record<string, unknown>);
    const key = `columns.${i}`;
    if (typeof name !== 'string' || !readable.has(name)) {
      errors[key] = [`Unknown field ${JSON.stringify(String(name)).slice(0, 60)} on ${resource.name}.`];
    } else if (out.some((c) => c.name === name)) {
      errors[key] = [`The column ${name} is named twice.`];
    } else if (label !== undefined && (typeof label !== 'string' || label.length > MAX_LABEL)) {
      errors[key] = [`The header of ${name} must be a text of at most ${MAX_LABEL} characters.`];
    } else {
      out.push({ name, label: typeof label === 'string' && label.trim() ? label : name });
    }
  });
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return out;
}

/** The belongsTo relations the columns show by label: loaded with the rows, one query each. */
export function relationsFor(resource: Resource, columns: ExportColumn[]): WithTree {
  const tree: WithTree = {};
  for (const c of columns) {
    const field = resource.fields[c.name];
    const relation = field && referenceOf(resource, field);
    if (relation) tree[relation.name] = {};
  }
  return tree;
}

/** A value as text; `raw` numbers stay numbers for the XLSX (money, counts), so a sheet can add them up. */
export type CellValue = string | number;

const clock = new Map<string, Intl.DateTimeFormat>();
function timeOfDay(locale: string): Intl.DateTimeFormat {
  let f = clock.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: PDF_TIME_ZONE,
    });
    clock.set(locale, f);
  }
  return f;
}

const WALL_CLOCK = /^\d{4}-\d{2}-\d{2}[ T](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?$/;

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

export interface ValueFormatter {
  kind: FieldKind;
  /** As the apps show it (the CSV). */
  text(row: Row): string;
  /** For the XLSX: money, counts and whole numbers as numbers, everything else as `text`. */
  cell(row: Row): CellValue;
}

/**
 * One formatter per column. A file is for reading on: texts are never cut at the screen's ellipsis
 * limits, and a moment carries its time of day (Dutch time, like the PDFs) besides the app's date.
 */
export function formatterFor(
  registry: Registry,
  resource: Resource,
  field: Field,
  auth: AuthContext,
  locale: ExportLocale,
): ValueFormatter {
  const kind = fieldKind(resource, field);
  const words = EXPORT_TEXTS[locale];
  const numeric = (row: Row): CellValue => {
    const v = row[field.name];
    if (v === null || v === undefined || v === '') return '';
    const n = Number(v);
    return Number.isFinite(n) ? n : text(v);
  };
  const make = (format: (value: unknown, row: Row) => string, cell?: (row: Row) => CellValue) => ({
    kind,
    text: (row: Row) => format(row[field.name], row),
    cell: cell ?? ((row: Row) => format(row[field.name], row)),
  });
  switch (kind) {
    case 'reference': {
      const relation = referenceOf(resource, field)!;
      const target = registry.get(relation.resource);
      const portalLabel = target?.schema?.['x-portal']?.label;
      const label =
        isPortalCaller(auth) && typeof portalLabel === 'string' ? portalLabel : (target?.label ?? 'name');
      return make((value, row) => {
        const loaded = row[relation.name] as Row | null | undefined;
        return loaded && typeof loaded === 'object' ? text(loaded[label] ?? loaded.id) : text(value);
      });
    }
    case 'enum':
      return make((value) => {
        if (value === null || value === undefined || value === '') return '';
        const entry = registry.enums[field.enumName ?? '']?.values.find(
          (e) => String(e.id) === String(value),
        );
        return entry?.name ?? String(value);
      });
    case 'boolean':
      return make((value) => (value === true ? words.yes : value === false ? words.no : ''));
    case 'date':
      return make((value) => formatDate(value as string, locale, PDF_TIME_ZONE));
    case 'datetime':
      return make((value) => {
        const day = formatDate(value as string, locale, PDF_TIME_ZONE);
        if (!day) return '';
        // A wall-clock text keeps its own time; an instant is shown in Dutch time.
        const wall = typeof value === 'string' ? WALL_CLOCK.exec(value) : null;
        if (wall) return `${day} ${wall[1]}`;
        const moment = value instanceof Date ? value : new Date(String(value));
        return Number.isNaN(moment.getTime()) ? day : `${day} ${timeOfDay(locale).format(moment)}`;
      });
    case 'minutes':
      return make((value) => formatMinutes(value as number));
    case 'quantity':
      return make((value) => formatQuantity(value as number, locale), numeric);
    case 'fileSize':
      return make((value) => formatFileSize(value as number, locale));
    case 'money':
      return make((value) => formatMoney(value as number, locale), numeric);
    case 'integer':
      return make(text, numeric);
    case 'json':
      return make((value) => (value === null || value === undefined ? '' : JSON.stringify(value)));
    default:
      return make(text);
  }
}
