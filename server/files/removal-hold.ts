/**
 * A backup copies the files folder after it dumped the database. A file removed in between (the sweep
 * removing an attachment deleted after the dump) would leave a dumped row pointing at a file missing
 * from the archive, so while a backup copies, removals from that folder wait (server/backup/make.ts).
 * New files may still be written: one written after the dump began may be in the archive or not.
 */
import { resolve } from 'node:path';

const holds = new Map<string, { count: number; released: Promise<void>; release: () => void }>();

/** Holds removals under `root` until the returned function is called. Holds may overlap. */
export function holdRemovals(root: string): () => void {
  const key = resolve(root);
  let hold = holds.get(key);
  if (!hold) {
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    hold = { count: 0, released, release };
    holds.set(key, hold);
  }
  hold.count++;
  const current = hold;
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--current.count > 0) return;
    holds.delete(key);
    current.release();
  };
}

/** Resolves when no backup holds removals under `root` (at once when none does). */
export async function removalsAllowed(root: string): Promise<void> {
  for (let hold = holds.get(resolve(root)); hold; hold = holds.get(resolve(root))) await hold.released;
}
