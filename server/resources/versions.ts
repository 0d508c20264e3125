/**
 * Other shapes of a list row (schema keyword x-versions), asked for with `?version=N`: the invoices'
 * version-2 listing of SPEC 3 (InvoiceCode, ReferenceNumber, …, ViewURL) is the same rows under other
 * names, so filters, sorts, paging and portal scope stay the generic ones.
 */
import type { Resource } from '../../common/schema/types.ts';
import type { Row } from '../query/relations.ts';
import type { Paginated } from './repository-contract.ts';

/** `{field}` placeholders of a template, filled from the row. */
function fill(template: string, row: Row): string {
  return template.replace(/\{([a-z_][a-z0-9_]*)\}/g, (_, field: string) => String(row[field] ?? ''));
}

export function shapeRow(shape: Record<string, string>, row: Row): Row {
  return Object.fromEntries(
    Object.entries(shape).map(([name, source]) => [
      name,
      source.includes('{') ? fill(source, row) : (row[source] ?? null),
    ]),
  );
}

/** The page with its rows in the version's shape (the parser has checked that the version exists). */
export function inVersion(resource: Resource, version: number, page: Paginated): Paginated {
  const shape = resource.versions[version]!;
  return { ...page, data: page.data.map((row) => shapeRow(shape, row)) };
}
