/**
 * `npm run files:migrate`: copies the files under DATA_DIR/files into the configured store under the
 * same keys (the attachment rows and export jobs name them), so a deployment that moves to the
 * database store, or to several instances, keeps every file. A key the store holds already is skipped:
 * a second run copies nothing. The folder is left as it is; remove it once the copy is checked.
 */
import type { FileStore } from './store.ts';

export interface CopyResult {
  /** Files written to the store by this run. */
  copied: number;
  /** Files the store held already (an earlier run). */
  present: number;
}

export async function copyLocalFiles(local: FileStore, target: FileStore): Promise<CopyResult> {
  const result: CopyResult = { copied: 0, present: 0 };
  for await (const key of local.keys()) {
    const file = await local.open(key);
    // Removed since it was listed (the sweep of another process): nothing to copy.
    if (!file) continue;
    try {
      if (await target.putAt(key, file.stream)) result.copied++;
      else result.present++;
    } finally {
      // Closes the file when the store failed before reading it to the end.
      file.stream.destroy();
    }
  }
  return result;
}
