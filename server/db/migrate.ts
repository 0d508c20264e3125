import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
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
 * The database was migrated by a newer version of the service desk: this code does not know all its
 * tables, and running on it could lose what the newer version stored. Start-up stops with this.
 */
export class NewerDatabase extends Error {
  constructor(readonly unknown: string[]) {
    super(
      `The database was upgraded by a newer version of the service desk: it has run migration ` +
        `${unknown.join(', ')}, which this version does not know. Run the newer version again, or, to go ` +
        `back to this version, restore the backup taken before the upgrade (docs/backup.md, ` +
        `"Upgrade and roll back").`,
    );
  }
}

/** The migrations the database has run, by name (none on a new database). */
async function executedMigrations(db: Db, schema?: string): Promise<string[]> {
  const table = schema ? `"${schema}".kysely_migration` : 'kysely_migration';
  const { rows } = await sql<{ found: string | null }>`select to_regclass(${table})::text as found`.execute(
    db,
  );
  if (!rows[0]?.found) return [];
  const names = await sql<{ name: string }>`select name from ${sql.raw(rows[0].found)}`.execute(db);
  return names.rows.map((r) => r.name);
}

/**
 * `schema`: the PostgreSQL schema the database lives in, when not the default. Kysely looks for its
 * bookkeeping tables in any schema unless told which, and would find another test's.
 * Throws NewerDatabase, changing nothing, when the database ran a migration not in `list`.
 */
export async function migrateToLatest(
  db: Db,
  schema?: string,
  list: Record<string, Migration> = migrations,
): Promise<void> {
  // Kysely would report the same as "corrupted migrations", in words that do not say what to do.
  const unknown = (await executedMigrations(db, schema)).filter((name) => !(name in list)).sort();
  if (unknown.length > 0) throw new NewerDatabase(unknown);
  const migrator = new Migrator({ db, provider: new ListedMigrations(list), migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${(error as Error)?.message ?? error}`);
  }
}
