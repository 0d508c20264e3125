import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../server/db/database.ts';
const dump = new Blob([await readFile('/tmp/main-seed/pglite.tar')]);
for (let i = 0; i < 4; i++) {
  const t = performance.now();
  const db = await openDatabase({ loadDataDir: dump });
  const t2 = performance.now();
  await db.close();
  console.log('open', Math.round(t2 - t), 'close', Math.round(performance.now() - t2));
}
