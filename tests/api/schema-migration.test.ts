/*
 * The migration against the schemas (a column for every field, of the right type; an index for every
 * default sort and filterable foreign key), on PGlite and, when TEST_DATABASE_URL is set, on
 * PostgreSQL: copies of the run's seed (tests/api/schema-world.ts). The seed's permissions and demo
 * data: tests/api/seed-data.test.ts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Field, Resource } from '../../common/schema/types.ts';
import { engines, openSeedCopy, resources, type SeedCopy } from './schema-world.ts';

/** What information_schema calls the column type of a schema field. */
function sqlType(f: Field): string[] {
  if (f.type === 'integer') return ['integer'];
  if (f.type === 'number') return ['numeric'];
  if (f.type === 'boolean') return ['boolean'];
  if (f.type === 'object' || f.type === 'array') return ['jsonb'];
  if (f.format === 'date-time') return ['timestamp with time zone'];
  if (f.format === 'date') return ['date'];
  return ['text', 'character varying'];
}

/** The column list of an index definition from pg_indexes, without directions and quotes. */
function indexColumns(indexdef: string): string[] {
  const start = indexdef.indexOf('(', indexdef.indexOf(' USING '));
  const columns: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of indexdef.slice(start + 1)) {
    if (ch === '(') depth++;
    if (ch === ')' && depth-- === 0) break;
    if (ch === ',' && depth === 0) {
      columns.push(current);
      current = '';
    } else current += ch;
  }
  columns.push(current);
  return columns.map((c) =>
    c
      .trim()
      .replace(/\s+(ASC|DESC)$/i, '')
      .replace(/"/g, ''),
  );
}

describe.each(engines)('the database on %s', (_name, target) => {
  let { db, dispose } = {} as SeedCopy;
  const columns = new Map<string, Map<string, { type: string; nullable: boolean }>>();
  const indexes = new Map<string, string[][]>();

  beforeAll(async () => {
    ({ db, dispose } = await openSeedCopy(target));

    const { rows } = await sql<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
    }>`
      select table_name, column_name, data_type, is_nullable from information_schema.columns
      where table_schema = current_schema()`.execute(db);
    for (const r of rows) {
      const table = columns.get(r.table_name) ?? new Map();
      table.set(r.column_name, { type: r.data_type, nullable: r.is_nullable === 'YES' });
      columns.set(r.table_name, table);
    }
    const idx = await sql<{ tablename: string; indexdef: string }>`
      select tablename, indexdef from pg_indexes where schemaname = current_schema()`.execute(db);
    for (const r of idx.rows) {
      if (!/USING btree/i.test(r.indexdef)) continue;
      indexes.set(r.tablename, [...(indexes.get(r.tablename) ?? []), indexColumns(r.indexdef)]);
    }
  });

  afterAll(async () => {
    await dispose?.();
  });

  describe('the migration', () => {
    it('has a column of the right type for every schema field, and tenant_id where the schema is tenant-owned', () => {
      const problems: string[] = [];
      for (const r of resources) {
        const table = columns.get(r.table);
        if (!table) {
          problems.push(`${r.name}: no table ${r.table}`);
          continue;
        }
        if (r.tenant && !table.has('tenant_id')) problems.push(`${r.name}: no tenant_id`);
        if (!r.tenant && table.has('tenant_id')) problems.push(`${r.name}: tenant_id on a shared table`);
        for (const f of Object.values(r.fields)) {
          const column = table.get(f.column);
          if (!column) problems.push(`${r.name}.${f.name}: no column ${r.table}.${f.column}`);
          else if (!sqlType(f).includes(column.type)) {
            problems.push(`${r.name}.${f.name}: ${column.type}, expected ${sqlType(f).join(' or ')}`);
          }
        }
      }
      expect(problems).toEqual([]);
    });

    it('allows null exactly where a schema does', () => {
      const problems: string[] = [];
      const tables = new Map<string, Resource[]>();
      for (const r of resources) tables.set(r.table, [...(tables.get(r.table) ?? []), r]);
      for (const [table, sharing] of tables) {
        const names = new Set(sharing.flatMap((r) => Object.values(r.fields).map((f) => f.column)));
        for (const column of names) {
          const fields = sharing.map((r) => Object.values(r.fields).find((f) => f.column === column));
          const nullable = columns.get(table)?.get(column)?.nullable;
          // A write-only field (a password) is optional; it is never read back.
          if (fields.some((f) => f?.writeOnly)) continue;
          if (fields.some((f) => f?.nullable) && nullable === false)
            problems.push(`${table}.${column} is not null`);
          // Not null only when every resource on the table has the field, non-nullable.
          if (fields.every((f) => f && !f.nullable) && nullable === true)
            problems.push(`${table}.${column} is nullable`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('has an index for every default sort, led by tenant_id', () => {
      const problems: string[] = [];
      for (const r of resources) {
        const column = r.fields[r.defaultSort[0]]!.column;
        const fixed = r.fixedWhere.map(([f]) => r.fields[f]!.column);
        const covers = (cols: string[]) => {
          const rest = r.tenant ? (cols[0] === 'tenant_id' ? cols.slice(1) : null) : cols;
          if (!rest) return false;
          const afterFixed = rest[0] && fixed.includes(rest[0]) ? rest.slice(1) : rest;
          return afterFixed[0] === column || rest[0] === column;
        };
        if (!(indexes.get(r.table) ?? []).some(covers)) problems.push(`${r.name}: ${r.table} (${column})`);
      }
      expect(problems).toEqual([]);
    });

    it('has an index for every filterable foreign key, led by tenant_id', () => {
      const problems: string[] = [];
      for (const r of resources) {
        for (const rel of Object.values(r.relations)) {
          if (rel.kind !== 'belongsTo' || !r.fields[rel.key]?.filter) continue;
          const column = r.fields[rel.key]!.column;
          const lead = r.tenant ? ['tenant_id', column] : [column];
          const covered = (indexes.get(r.table) ?? []).some((cols) => lead.every((c, i) => cols[i] === c));
          if (!covered) problems.push(`${r.name}.${rel.key}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('has a trigram index for every text the global search looks in (x-global-search), and no other', async () => {
      const { rows } = await sql<{ indexdef: string }>`
        select indexdef from pg_indexes where schemaname = current_schema() and indexdef like '%gin_trgm_ops%'`.execute(
        db,
      );
      const indexed = rows
        .map((r) => r.indexdef.replace(/.* ON (\S+\.)?(\w+) USING gin \((\w+).*/, '$2.$3'))
        .sort();
      // Clients and operators share the users table: one index serves both resources.
      const searched = new Set(
        resources.flatMap((r) =>
          (r.globalSearch?.fields ?? []).map((f) => `${r.table}.${r.fields[f]!.column}`),
        ),
      );
      expect(searched.size).toBeGreaterThan(5);
      expect(indexed).toEqual([...searched].sort());
    });

    it('stores the invoice statuses of the specification', async () => {
      const rows = await db
        .selectFrom('invoice_statuses')
        .select(['id', 'name', 'style'])
        .orderBy('id')
        .execute();
      expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 8, 9]);
      expect(rows.every((r) => r.name && r.style)).toBe(true);
    });
  });
});
