/**
 * The small pieces every statement is built from: an identifier, a field's value in the caller's
 * language, a table under an alias, and/or, a LIKE pattern, an operator. Identifiers come only from the
 * registry, values only as parameters.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Field, Resource } from '../../common/schema/types.ts';
import { LANGUAGE_FALLBACK, type Language } from '../../common/schema/types.ts';

export type Fragment = RawBuilder<unknown>;

export const ref = (alias: string, column: string): Fragment => sql.ref(`${alias}.${column}`) as Fragment;
export const col = (alias: string, field: Field) => ref(alias, field.column);

/**
 * A field's value as the caller reads, filters and sorts it: a translated field (x-translated) in the
 * caller's language, past empty translations to the next language of the fallback (de, en, nl).
 */
export function fieldValue(alias: string, field: Field, language: Language = 'nl'): Fragment {
  const translations = field.translations;
  if (!translations || language === 'nl') return col(alias, field);
  const texts = LANGUAGE_FALLBACK[language].map((l) =>
    l === 'nl' ? col(alias, field) : sql`nullif(${ref(alias, translations[l])}, '')`,
  );
  return sql`coalesce(${sql.join(texts)})`;
}

export const tableAs = (resource: Resource, alias: string): Fragment =>
  sql`${sql.table(resource.table)} as ${sql.id(alias)}`;

export function and(parts: Fragment[]): Fragment {
  if (parts.length === 0) return sql`true`;
  if (parts.length === 1) return parts[0]!;
  return sql`(${sql.join(parts, sql` and `)})`;
}

export function or(parts: Fragment[]): Fragment {
  if (parts.length === 0) return sql`false`;
  if (parts.length === 1) return parts[0]!;
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** LIKE pattern for a substring search: the caller's % and _ are literal characters. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}

export const SQL_OPERATORS: Record<string, string> = {
  '=': '=',
  '!=': '<>',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
};

export function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}
