/**
 * What kind of value a schema field holds, decided by its type, format, `x-enum`, the resource's
 * belongsTo relations and a few name rules (SPEC 9): the one decision the apps' type -> component
 * table and the server's exports share, so a column reads the same on screen and in a file.
 */
import type { Field, Relation, Resource } from './types.ts';

export type FieldKind =
  | 'reference'
  | 'enum'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'minutes'
  | 'quantity'
  | 'fileSize'
  | 'money'
  | 'integer'
  | 'email'
  | 'text'
  | 'json';

/** Number fields whose name says what they count. First match wins. */
const NUMBER_NAME_RULES: { pattern: RegExp; kind: 'minutes' | 'quantity' | 'fileSize' }[] = [
  // Minutes, shown HH:MM: time_spent, time_spent_rounded, registered_time, minutes_remaining, minutes_total.
  { pattern: /(^|_)(time_spent|minutes|registered_time)(_|$)/, kind: 'minutes' },
  // Counts and hours: fractional quantities with 2 decimals, not euros.
  { pattern: /(^|_)(quantity|hours|periods|percentage|order)$/, kind: 'quantity' },
  { pattern: /^size$/, kind: 'fileSize' },
];

export type BelongsTo = Extract<Relation, { kind: 'belongsTo' }>;

/** The belongsTo relation whose foreign key is this field. */
export function referenceOf(resource: Resource, field: Field): BelongsTo | undefined {
  return Object.values(resource.relations).find(
    (r): r is BelongsTo => r.kind === 'belongsTo' && r.key === field.name,
  );
}

/** Type, format, x-enum, relations, then name rules: the one decision every view uses. */
export function fieldKind(resource: Resource, field: Field): FieldKind {
  if (referenceOf(resource, field)) return 'reference';
  if (field.enumName) return 'enum';
  if (field.type === 'boolean') return 'boolean';
  if (field.type === 'object' || field.type === 'array') return 'json';
  if (field.format === 'date') return 'date';
  if (field.format === 'date-time') return 'datetime';
  if (field.type === 'integer' || field.type === 'number') {
    const rule = NUMBER_NAME_RULES.find((r) => r.pattern.test(field.name));
    if (rule) return rule.kind;
    return field.type === 'number' ? 'money' : 'integer';
  }
  if (field.format === 'email') return 'email';
  return 'text';
}
