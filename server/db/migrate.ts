import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.ts';
import { migrations } from './migrations/index.ts';

/** Migrations are listed in code, not discovered on disk: the bundle and the tests see the same list. */
class ListedMigrations implements MigrationProvider {
  constructor(private readonly list: Record<string, Migration>) {}
  async getMigrations() {
    return this.list;
  }
}

/**
 * `schema`: the PostgreSQL schema the database lives in, when not the default. Kysely looks for its
 * bookkeeping tables in any schema unless told which, and would find another test's.
 */
export async function migrateToLatest(
  db: Db,
  schema?: string,
  list: Record<string, Migration> = migrations,
): Promise<void> {
  const migrator = new Migrator({ db, provider: new ListedMigrations(list), migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? error}`);
  }
}
