/**
 * An export's columns: which fields, under which headers (the caller's, else the field's label in the
 * export's language), and each value: references by their label, enumerations by their label in the
 * language, and dates, moments, amounts and durations as a spreadsheet computes with them
 * (./typed-values.ts).
 */
import type { AuthContext } from '../auth/context.ts';
import { ValidationError } from '../http/errors.ts';
import type { Registry } from '../schema/registry.ts';
import type { Field, Resource } from '../../common/schema/types.ts';
import { fieldKind, referenceOf, type FieldKind } from '../../common/schema/field-kind.ts';
import { formatFileSize, formatMinutes } from '../../common/format.ts';
import { isPortalCaller, readableFields } from '../query/visibility.ts';
import type { WithTree } from '../query/tree.ts';
import type { Row } from '../query/relations.ts';
import { numberOf, plainNumber, sheetDate, wallClock } from './typed-values.ts';
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

/** The column's header: the one the caller gave, else the field's label in the export's language. */
export function headerOf(resource: Resource, column: ExportColumn, locale: ExportLocale): string {
  if (column.label !== column.name) return column.label;
  return (
    resource.labels[locale]?.fields?.[column.name] ?? resource.labels.nl?.fields?.[column.name] ?? column.name
  );
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

/** A value of the XLSX: numbers and dates as such, so a sheet can compute with them; the rest text. */
export type CellValue = string | number | Date;

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

export interface ValueFormatter {
  kind: FieldKind;
  /** For the CSV: text to read and to compute with (./typed-values.ts). */
  text(row: Row): string;
  /** For the XLSX: amounts, counts, dates, moments and durations as typed cells, the rest as `text`. */
  cell(row: Row): CellValue;
}

/**
 * One formatter per column. A file is for computing and reading on: texts are never cut at the screen's
 * ellipsis limits, and a moment carries its time of day.
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
  const numeric = (row: Row): CellValue => numberOf(row[field.name]) ?? text(row[field.name]);
  const decimal = (decimals?: number) => (value: unknown) => {
    const n = numberOf(value);
    return n === null ? text(value) : plainNumber(n, locale, decimals);
  };
  const moment = (withTime: boolean) => ({
    text: (value: unknown) => {
      const clock = wallClock(value);
      return clock ? (withTime ? `${clock.date} ${clock.time}` : clock.date) : '';
    },
    cell: (row: Row): CellValue => {
      const clock = wallClock(row[field.name]);
      return clock ? sheetDate(withTime ? clock : { ...clock, time: '00:00' }) : '';
    },
  });
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
    case 'enum': {
      const enumeration = registry.enums[field.enumName ?? ''];
      const labels = enumeration?.['x-i18n']?.[locale];
      return make((value) => {
        if (value === null || value === undefined || value === '') return '';
        const entry = enumeration?.values.find((e) => String(e.id) === String(value));
        return labels?.[String(value)] ?? entry?.name ?? String(value);
      });
    }
    case 'boolean':
      return make((value) => (value === true ? words.yes : value === false ? words.no : ''));
    case 'date': {
      const { text: day, cell } = moment(false);
      return make(day, cell);
    }
    case 'datetime': {
      const { text: at, cell } = moment(true);
      return make(at, cell);
    }
    case 'minutes':
      // HH:MM in the CSV, which a sheet reads as a duration; in the XLSX a duration cell (days).
      return make(
        (value) => formatMinutes(value as number),
        (row) => {
          const n = numberOf(row[field.name]);
          return n === null ? '' : n / 1440;
        },
      );
    case 'quantity':
      return make(decimal(), numeric);
    case 'fileSize':
      return make((value) => formatFileSize(value as number, locale));
    case 'money':
      return make(decimal(2), numeric);
    case 'integer':
      return make(text, numeric);
    case 'json':
      return make((value) => (value === null || value === undefined ? '' : JSON.stringify(value)));
    default:
      return make(text);
  }
}
