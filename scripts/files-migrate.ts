/**
 * Copies the files under DATA_DIR/files into the store FILES_STORE names (server/files/migrate-local.ts),
 * with the server's own settings: DATABASE_URL, DATA_DIR, FILES_STORE. Safe to run again.
 */
import { join } from 'node:path';
import { configFromEnv } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { fileStoreFor, localFileStore } from '../server/files/store.ts';
import { copyLocalFiles } from '../server/files/migrate-local.ts';

const config = configFromEnv();
if (config.filesStore === 'local') {
  console.log('FILES_STORE is local: the files are where they belong already, nothing to copy.');
  process.exit(0);
}
const database = await openDatabase(
  config.databaseUrl ? { url: config.databaseUrl } : { dataDir: join(config.dataDir, 'pglite') },
);
try {
  // The store's tables come with the migrations; a copy before the first start of a new version works.
  await migrateToLatest(database.db);
  const source = join(config.dataDir, 'files');
  const { copied, present } = await copyLocalFiles(localFileStore(source), fileStoreFor(config, database.db));
  console.log(
    `Copied ${copied} file${copied === 1 ? '' : 's'} from ${source} into the ${config.filesStore} store` +
      ` (${present} already there).`,
  );
} finally {
  await database.close();
}
