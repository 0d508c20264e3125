/**
 * Compares what two versions of the demo seed write, table by table and row by row, so a refactor of
 * the seed can show that the demo data (names, counts, ids, links) stayed exactly the same: many API and
 * e2e tests assert them.
 *
 *   npx tsx scripts/seed-compare.ts <old demo.ts> [<new demo.ts>]
 *
 * e.g. `npx tsx scripts/seed-compare.ts /work/main/server/db/seed/demo.ts` (a checkout of the version
 * before). Both are seeded into in-memory PGlite databases with the same `now` and password hash; the
 * only values masked are timestamps the database itself filled in at insert time (column defaults),
 * which differ between two runs. Exits 1 on any difference.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { migrateToLatest } from '../server/db/migrate.ts';
import { openDatabase, type Db } from '../server/db/database.ts';
import { bySchema } from '../server/db/schema-tables.ts';
import { registry } from '../server/schema/registry.ts';
import { syncPermissions } from '../server/db/seed/permissions.ts';

// In the past, so no date the seed sets is mistaken for an insert time below.
const NOW = new Date('2025-03-15T10:17:00Z');
const started = Date.now();

type SeedDemo = (db: Db, registry: unknown, opts: { passwordHash: string; now?: Date }) => Promise<void>;

async function dump(modulePath: string): Promise<Map<string, string[]>> {
  const { seedDemo } = (await import(pathToFileURL(resolve(modulePath)).href)) as { seedDemo: SeedDemo };
  const database = await openDatabase();
  try {
    const db = database.db;
    await migrateToLatest(db);
    await syncPermissions(db, registry());
    const t0 = performance.now();
    await seedDemo(db, registry(), { passwordHash: 'fixed-hash', now: NOW });
    console.log(`${modulePath}: seeded in ${Math.round(performance.now() - t0)} ms`);
    // Every table, named at run time: the schema view (server/db/schema-tables.ts).
    const tables = await bySchema(db)
      .selectFrom('information_schema.tables')
      .select('table_name')
      .where('table_schema', '=', 'public')
      .where('table_type', '=', 'BASE TABLE')
      .orderBy('table_name')
      .execute();
    const out = new Map<string, string[]>();
    for (const { table_name } of tables) {
      const name = String(table_name);
      // Random keys a migration makes, not the seed's.
      if (name === 'signing_keys') continue;
      const rows = await bySchema(db).selectFrom(name).selectAll().execute();
      const lines = rows.map((row) =>
        JSON.stringify(row, (_key, value: unknown) => {
          // A default now() differs between the two runs; every date the seed sets is relative to NOW.
          if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value)) {
            const t = Date.parse(value);
            if (t >= started - 60_000) return '<insert time>';
          }
          return value;
        }),
      );
      // Ordered by the whole row: tables without an id column (links) compare too.
      out.set(name, lines.sort());
    }
    return out;
  } finally {
    await database.close();
  }
}

const [oldPath, newPath = 'server/db/seed/demo.ts'] = process.argv.slice(2);
if (!oldPath) {
  console.error('usage: tsx scripts/seed-compare.ts <old demo.ts> [<new demo.ts>]');
  process.exit(2);
}
const before = await dump(oldPath);
const after = await dump(newPath);
let differences = 0;
let rows = 0;
for (const table of new Set([...before.keys(), ...after.keys()])) {
  const a = before.get(table) ?? [];
  const b = after.get(table) ?? [];
  rows += a.length;
  if (a.length !== b.length) {
    console.log(`${table}: ${a.length} rows before, ${b.length} after`);
    differences++;
    continue;
  }
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      console.log(`${table}: row differs\n  before ${a[i]}\n  after  ${b[i]}`);
      differences++;
      break;
    }
  }
}
console.log(
  differences === 0
    ? `identical: ${before.size} tables, ${rows} rows`
    : `${differences} table(s) differ out of ${before.size}`,
);
process.exit(differences === 0 ? 0 : 1);
