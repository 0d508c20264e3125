/**
 * npm run restore -- FILE [--data-dir DIR]: a backup from npm run backup into a new, empty data folder
 * (DATA_DIR unless --data-dir says another). docs/backup.md.
 */
import { resolve } from 'node:path';
import { configFromEnv } from '../server/config.ts';
import { restoreFromFile } from '../server/backup/restore.ts';

const args = process.argv.slice(2);
const dirAt = args.indexOf('--data-dir');
const file = args.find((a, i) => !a.startsWith('-') && i !== dirAt + 1);
const unknown = args.filter((a, i) => a.startsWith('-') && i !== dirAt);
if (!file || unknown.length > 0 || (dirAt >= 0 && !args[dirAt + 1])) {
  console.error('usage: npm run restore -- FILE [--data-dir DIR]');
  process.exit(2);
}
const config = configFromEnv();
if (config.databaseUrl && dirAt < 0) {
  console.error(
    'DATABASE_URL is set: restore PostgreSQL with pg_restore (pg_restore -d "$DATABASE_URL" desk.dump) and the ' +
      'files beside it. This command restores the embedded database: unset DATABASE_URL or pass --data-dir. ' +
      'See docs/backup.md.',
  );
  process.exit(2);
}
const dataDir = dirAt >= 0 ? resolve(args[dirAt + 1]!) : config.dataDir;
try {
  const manifest = await restoreFromFile(resolve(file), dataDir);
  console.log(
    `Restored the backup of ${manifest.createdAt} (version ${manifest.version}, ${manifest.files} files) into ${dataDir}.`,
  );
} catch (error) {
  console.error(`Restore refused: ${(error as Error).message}`);
  process.exit(1);
}
