/**
 * Every migration, in order: each `NNNN_name.ts` file of this folder, found when the server starts, so a
 * new resource's migration is one new file (schemas/README.md) and no list to edit. A migration is never
 * edited once released: add the next one. The name is the file name without `.ts`, as Kysely records it.
 */
import { readdirSync } from 'node:fs';
import type { Migration } from 'kysely';

const FOLDER = new URL('./', import.meta.url);
const MIGRATION_FILE = /^(\d{4}_[a-z0-9_]+)\.ts$/;

async function load(): Promise<Record<string, Migration>> {
  const files = readdirSync(FOLDER).filter((file) => file.endsWith('.ts') && file !== 'index.ts');
  // A misnamed file would be skipped without a word, and its tables missing: refuse to start instead.
  const misnamed = files.filter((file) => !MIGRATION_FILE.test(file));
  if (misnamed.length > 0) {
    throw new Error(`server/db/migrations: name migration files NNNN_name.ts, not ${misnamed.join(', ')}`);
  }
  const names = files.map((file) => MIGRATION_FILE.exec(file)![1]!).sort();
  const modules = await Promise.all(
    names.map(async (name) => (await import(new URL(`${name}.ts`, FOLDER).href)) as Migration),
  );
  return Object.fromEntries(names.map((name, i) => [name, modules[i]!]));
}

export const migrations: Record<string, Migration> = await load();
