/**
 * npm run backup -- [--out FILE]: the embedded database and its files as one .tar.gz (docs/backup.md).
 * Works while the server runs (it makes the dump) and when it does not.
 */
import { resolve } from 'node:path';
import { configFromEnv } from '../server/config.ts';
import { backupToFile } from '../server/backup/client.ts';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
if (
  (outAt >= 0 && !args[outAt + 1]) ||
  args.some((a, i) => a.startsWith('-') && a !== '--out' && i !== outAt + 1)
) {
  console.error('usage: npm run backup -- [--out FILE]');
  process.exit(2);
}
const config = configFromEnv();
if (config.databaseUrl) {
  console.error(
    'DATABASE_URL is set: back up PostgreSQL with pg_dump (pg_dump -Fc -f desk.dump "$DATABASE_URL"), ' +
      'and DATA_DIR/files or the bucket beside it unless FILES_STORE=postgres keeps the files in the database. ' +
      'See docs/backup.md.',
  );
  process.exit(2);
}
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const out = resolve(outAt >= 0 ? args[outAt + 1]! : `service-desk-backup-${stamp}.tar.gz`);
try {
  const manifest = await backupToFile(config.dataDir, out);
  console.log(`Backup written to ${out}: database at ${manifest.latestMigration}, ${manifest.files} files.`);
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  process.exit(1);
}
