/**
 * The database the schema and seed tests read (tests/api/schema-migration.test.ts and
 * tests/api/seed-data.test.ts): a copy of the run's demo seed (global-setup.ts), on PGlite and, when
 * TEST_DATABASE_URL is set, on PostgreSQL. It was migrated and seeded as every database is, so what the
 * tests read of it is what a migration and the seed make.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { DatabaseConnection } from '../../server/db/database.ts';
import { registry } from '../../server/schema/registry.ts';
import { pgliteCopy, postgresCopy, type Copy } from './seed-copy.ts';

interface Target {
  name: string;
  open(): Promise<{ database: DatabaseConnection; dispose(): Promise<void> }>;
}

/** The run's demo seed, copied into a folder of its own that `dispose` removes. */
function copyOn(copy: (dataDir: string) => Promise<Copy>): Target['open'] {
  return async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sd-columns-'));
    const { database, drop } = await copy(dataDir);
    return {
      database,
      async dispose() {
        await database.close();
        await drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  };
}

const targets: Target[] = [{ name: 'pglite', open: copyOn((dir) => pgliteCopy(inject('seeds'), dir)) }];
const url = process.env.TEST_DATABASE_URL;
if (url) {
  targets.push({
    name: 'postgres',
    open: copyOn((dir) => postgresCopy(inject('seeds'), url, dir, { poolSize: 2 })),
  });
}

/** The engines as `describe.each` takes them: [name, target]. */
export const engines = targets.map((t) => [t.name, t] as const);

export const reg = registry();
export const resources = [...reg.resources.values()];

export type SeedCopy = Awaited<ReturnType<typeof openSeedCopy>>;

/** A fresh copy on `target`: its database, the demo tenant (acme) and what removes the copy. */
export async function openSeedCopy(target: Target) {
  const opened = await target.open();
  const db = opened.database.db;
  const tenantId = Number(
    (await db.selectFrom('tenants').select('id').where('slug', '=', 'acme').executeTakeFirstOrThrow()).id,
  );
  return { db, tenantId, dispose: opened.dispose };
}
