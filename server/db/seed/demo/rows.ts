import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Registry } from '../../../schema/registry.ts';
import type { Resource } from '../../../../common/schema/types.ts';
import { bySchema } from '../../schema-tables.ts';
import { fail, type Row, type SeedContext } from './context.ts';

/*
 * The demo rows of a resource as data (issue 34): `server/db/seed/data/rows/<resource>.json`, an array
 * of records by field name, as a POST would send them. A resource added as a schema and a migration
 * shows in the demo with this file and no seed code. The generic seed inserts them after the parts in
 * TypeScript, into the demo tenant (`tenant_id` and the resource's fixed `x-where` values added); a
 * field whose value is `{ "$lookup": [resource, field, value] }` gets the id of the tenant's record of
 * that resource with that value (`["companies", "name", "Jansen BV"]`).
 */

/** Where the data files of demo rows are. */
export const ROWS_DIR = fileURLToPath(new URL('../data/rows/', import.meta.url));

type Lookup = { $lookup: [string, string, unknown] };
const isLookup = (value: unknown): value is Lookup =>
  typeof value === 'object' && value !== null && Array.isArray((value as Lookup).$lookup);

async function lookUp(
  ctx: SeedContext,
  registry: Registry,
  tenantId: number,
  [name, field, value]: Lookup['$lookup'],
) {
  const resource = registry.require(name);
  const column = resource.fields[field]?.column ?? fail(`$lookup: ${name} has no field ${field}`);
  let query = bySchema(ctx.db).selectFrom(resource.table).select('id').where(column, '=', value);
  if (resource.tenant) query = query.where('tenant_id', '=', tenantId);
  for (const [f, op, v] of resource.fixedWhere)
    if (op === '=') query = query.where(resource.fields[f]!.column, '=', v);
  const found = await query.executeTakeFirst();
  return found ? Number(found.id) : fail(`$lookup: no ${name} with ${field} ${JSON.stringify(value)}`);
}

/** A value with its lookups resolved, inside JSON values too (an automation rule's actions name records). */
async function resolve(
  ctx: SeedContext,
  registry: Registry,
  tenantId: number,
  value: unknown,
): Promise<unknown> {
  if (isLookup(value)) return lookUp(ctx, registry, tenantId, value.$lookup);
  if (Array.isArray(value)) return Promise.all(value.map((v) => resolve(ctx, registry, tenantId, v)));
  if (typeof value === 'object' && value !== null) {
    const out: Row = {};
    for (const [key, v] of Object.entries(value)) out[key] = await resolve(ctx, registry, tenantId, v);
    return out;
  }
  return value;
}

async function toRow(
  ctx: SeedContext,
  registry: Registry,
  resource: Resource,
  tenantId: number,
  record: Row,
) {
  const row: Row = resource.tenant ? { tenant_id: tenantId } : {};
  for (const [f, op, v] of resource.fixedWhere) if (op === '=') row[resource.fields[f]!.column] = v;
  for (const [name, value] of Object.entries(record)) {
    const field = resource.fields[name] ?? fail(`rows/${resource.name}.json: no field ${name}`);
    const resolved = await resolve(ctx, registry, tenantId, value);
    row[field.column] =
      typeof resolved === 'object' && resolved !== null ? JSON.stringify(resolved) : resolved;
  }
  return row;
}

/** Inserts each resource's rows of `dir` (default ROWS_DIR), resources in the registry's order. */
export async function seedRows(
  ctx: SeedContext,
  registry: Registry,
  tenantId: number,
  dir = ROWS_DIR,
): Promise<void> {
  const withRows = [...registry.resources.values()].filter((r) => existsSync(join(dir, `${r.name}.json`)));
  for (const resource of lookedUpFirst(withRows, dir)) {
    const file = join(dir, `${resource.name}.json`);
    const records = JSON.parse(readFileSync(file, 'utf8')) as Row[];
    const rows: Row[] = [];
    for (const record of records) rows.push(await toRow(ctx, registry, resource, tenantId, record));
    if (rows.length) await bySchema(ctx.db).insertInto(resource.table).values(rows).execute();
  }
}

/**
 * The resources in the registry's order, except that one whose rows look up another's demo rows comes
 * after it (a webhook's deliveries name the webhook, whose name sorts after theirs).
 */
function lookedUpFirst(resources: Resource[], dir: string): Resource[] {
  const names = new Set(resources.map((r) => r.name));
  const needs = new Map(
    resources.map((r) => {
      const text = readFileSync(join(dir, `${r.name}.json`), 'utf8');
      const looked = [...text.matchAll(/"\$lookup"\s*:\s*\[\s*"([a-z0-9-]+)"/g)].map((m) => m[1]!);
      return [r.name, looked.filter((n) => n !== r.name && names.has(n))];
    }),
  );
  const done = new Set<string>();
  const ordered: Resource[] = [];
  const visit = (r: Resource, path: Set<string>) => {
    if (done.has(r.name) || path.has(r.name)) return;
    path.add(r.name);
    for (const n of needs.get(r.name) ?? [])
      visit(
        resources.find((x) => x.name === n)!,
        path,
      );
    done.add(r.name);
    ordered.push(r);
  };
  for (const r of resources) visit(r, new Set());
  return ordered;
}
