/**
 * THE type -> component table (DESIGN 4): how a schema field is shown (table cell, card, show page),
 * filtered (header filter control) and edited (react-admin input), decided by its type, format, `x-enum`,
 * the resource's belongsTo relations and a few name rules; never per resource, like react-admin's
 * guessers. This file holds the table itself, per kind its alignment, text formatter and filter; the
 * rest of it lives beside it in this folder:
 *
 *   ./rules.ts        ellipsisLimit, readableFields, canReadResource, labelFieldOf: name and reader rules
 *   ./display.tsx     <FieldDisplay resource field record /> (`full` skips the ellipsis), displayValue:
 *                     the value as shown in a table cell, card or show page, with its links and chips
 *   ./FilterControl.tsx  <FilterControl resource field value onChange label />: the header filter control
 *   ./inputs.tsx      <FieldInput resource field />: the edit/create input, per kind
 *   ./ReferenceSearchInput.tsx  the search of a related record in a form
 *
 *   displayText(resource, field, record, { locale, translate })  plain text (cards, titles, exports)
 *   fieldKind / filterKind / referenceOf / fieldAlign   the decisions themselves
 */
import type { RaRecord } from 'react-admin';
import type { Field, Resource } from '../../../common/schema/types.ts';
import { fieldKind, referenceOf, type FieldKind } from '../../../common/schema/field-kind.ts';
import {
  ellipsis,
  formatDate,
  formatDateTime,
  formatFileSize,
  formatMinutes,
  formatMoney,
  formatQuantity,
} from '../../../common/format.ts';
import { registry } from '../../schema.ts';
import type { AppKind } from '../../custom/appKind.ts';
import type { FilterKind } from '../../custom/list/filters.ts';
import { canReadResource, cutField, ellipsisLimit, labelFieldOf } from './rules.ts';

// The kind of a field is one decision the apps and the server's exports share.
export { fieldKind, referenceOf, type FieldKind } from '../../../common/schema/field-kind.ts';

// ---------------------------------------------------------------------------------------------------
// The table: per kind, its alignment, text formatter and filter (the inputs: ./inputs.tsx).

export interface FormatContext {
  locale: string;
  translate: (key: string, options?: any) => string;
  /** References show the label a user of this app sees (default: the back office's). */
  appKind?: AppKind;
}

interface KindEntry {
  /** Right-aligned numbers. */
  align: 'left' | 'right';
  format: (value: unknown, ctx: FormatContext, resource: Resource, field: Field) => string;
  filter?: FilterKind;
}

/** What every input gets (./inputs.tsx): its source and resource, label, validation, help, the caller's props. */
export type InputExtraProps = Record<string, unknown> & { source: string; resource: string };

export const asText = (value: unknown) => (value === null || value === undefined ? '' : String(value));

function enumLabel(field: Field, value: unknown, translate: FormatContext['translate']): string {
  if (value === null || value === undefined || value === '') return '';
  const entry = registry.enums[field.enumName ?? '']?.values.find((v) => String(v.id) === String(value));
  return translate(`enums.${field.enumName}.${String(value)}`, { _: entry?.name ?? String(value) });
}

/** Enumeration values as choices with translated labels. */
export function enumChoices(
  field: Field,
  translate: FormatContext['translate'],
): { id: string | number; label: string }[] {
  const seen = new Set<string>();
  const out: { id: string | number; label: string }[] = [];
  for (const v of registry.enums[field.enumName ?? '']?.values ?? []) {
    if (seen.has(String(v.id))) continue;
    seen.add(String(v.id));
    out.push({ id: v.id, label: enumLabel(field, v.id, translate) });
  }
  return out;
}

export const KINDS: Record<FieldKind, KindEntry> = {
  reference: {
    align: 'left',
    format: (value, ctx, resource, field) => {
      const relation = referenceOf(resource, field);
      const target = relation && registry.get(relation.resource);
      if (typeof value === 'object' && value !== null && target) {
        const label = labelFieldOf(target, ctx.appKind ?? 'backoffice');
        return ellipsis(asText((value as RaRecord)[label]), ellipsisLimit(target.name, label));
      }
      return asText(value);
    },
    filter: 'select',
  },
  enum: {
    align: 'left',
    format: (value, ctx, _r, field) => enumLabel(field, value, ctx.translate),
    filter: 'select',
  },
  boolean: {
    align: 'left',
    format: (value, ctx) =>
      value === true ? ctx.translate('list.yes') : value === false ? ctx.translate('list.no') : '',
    filter: 'boolean',
  },
  date: {
    align: 'left',
    format: (value, ctx) => formatDate(value as string, ctx.locale),
    filter: 'date',
  },
  datetime: {
    align: 'left',
    // SPEC 9's date; with x-time (a history's moments) the time of day after it.
    format: (value, ctx, _r, field) =>
      field.schema['x-time'] === true
        ? `${formatDate(value as string, ctx.locale)} ${formatDateTime(value as string, ctx.locale)
            .split(' ')
            .pop()}`
        : formatDate(value as string, ctx.locale),
    filter: 'datetime',
  },
  minutes: {
    align: 'right',
    format: (value) => formatMinutes(value as number),
    filter: 'number',
  },
  quantity: {
    align: 'right',
    format: (value, ctx) => formatQuantity(value as number, ctx.locale),
    filter: 'number',
  },
  fileSize: {
    align: 'right',
    format: (value, ctx) => formatFileSize(value as number, ctx.locale),
    filter: 'number',
  },
  money: {
    align: 'right',
    format: (value, ctx) => formatMoney(value as number, ctx.locale),
    filter: 'number',
  },
  integer: {
    align: 'right',
    format: asText,
    filter: 'number',
  },
  email: {
    align: 'left',
    format: (value, _ctx, resource, field) => cutField(asText(value), resource, field),
    filter: 'text',
  },
  text: {
    align: 'left',
    format: (value, _ctx, resource, field) => cutField(asText(value), resource, field),
    filter: 'text',
  },
  json: {
    align: 'left',
    format: (value) => ellipsis(jsonText(value)),
  },
};

/** A JSON value as text; a list of texts (a webhook's events) as the texts with commas. */
export function jsonText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join(', ');
  return JSON.stringify(value);
}

export function fieldAlign(resource: Resource, field: Field): 'left' | 'right' {
  return KINDS[fieldKind(resource, field)].align;
}

/** What the field's header filter produces; undefined when the field cannot be filtered. */
export function filterKind(
  resource: Resource,
  field: Field,
  appKind: AppKind = 'backoffice',
): FilterKind | undefined {
  if (!field.filter) return undefined;
  const kind = fieldKind(resource, field);
  if (kind === 'reference') {
    const relation = referenceOf(resource, field)!;
    // A client cannot search a resource outside the portal; the id is still a number.
    if (!canReadResource(relation.resource, appKind)) return 'number';
  }
  return KINDS[kind].filter;
}

// ---------------------------------------------------------------------------------------------------
// The value as text.

/**
 * The value as text: dates 'DD MMM YY', euros, HH:MM, enum labels, yes/no, texts cut at their limit.
 * A reference is its related record's label when loaded (`with`), else the raw id.
 */
export function displayText(
  resource: Resource,
  field: Field,
  record: RaRecord | undefined,
  ctx: FormatContext,
): string {
  if (!record) return '';
  const kind = fieldKind(resource, field);
  if (kind === 'reference') {
    const relation = referenceOf(resource, field)!;
    const loaded = record[relation.name];
    if (typeof loaded === 'object' && loaded !== null)
      return KINDS.reference.format(loaded, ctx, resource, field);
  }
  return KINDS[kind].format(record[field.name], ctx, resource, field);
}
