/**
 * One process per embedded database folder. PGlite has no lock of its own: two processes on one
 * folder both start, and each loses the other's writes. The lock is a file next to the folder,
 * created exclusively and holding the owner's PID; a lock whose process no longer runs (it
 * was killed, the machine restarted) is stale and taken over.
 */
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isProcessRunning } from '../process-alive.ts';

export class FolderInUse extends Error {
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(
      `The data folder ${folder} is in use by process ${pid}. Stop that process first, or give this one ` +
        `another DATA_DIR.`,
    );
  }
}

export interface FolderLock {
  /** Removes the lock file if it is still this process's. */
  release(): void;
}

function ownerOf(lockFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

// Folders this process holds: a lock file with our own PID is ours only if it is in here (otherwise it
// was left by an earlier process that had the same PID, as in a restarted container).
const held = new Set<string>();

/** Takes `<folder>.lock` for this process, or throws FolderInUse naming the process that holds it. */
export function lockFolder(folder: string): FolderLock {
  const lockFile = `${folder}.lock`;
  if (held.has(lockFile)) throw new FolderInUse(folder, process.pid);
  // Written whole under a name of our own, then linked into place: link fails when the lock exists
  // (O_EXCL's promise), and a lock file is never seen half written.
  const ours = `${lockFile}.${process.pid}`;
  writeFileSync(ours, `${process.pid}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(ours, lockFile);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw error;
        const owner = ownerOf(lockFile);
        if (owner !== undefined && owner !== process.pid && isProcessRunning(owner)) {
          throw new FolderInUse(folder, owner);
        }
        // Its process is gone (killed, the machine restarted), or it was an earlier process with our
        // PID (a restarted container): the lock is taken over.
        rmSync(lockFile, { force: true });
      }
    }
  } finally {
    rmSync(ours, { force: true });
  }
  held.add(lockFile);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    held.delete(lockFile);
    process.off('exit', release);
    if (ownerOf(lockFile) === process.pid) rmSync(lockFile, { force: true });
  };
  // A process that ends without closing the database (an error while starting) leaves no lock.
  process.once('exit', release);
  return { release };
}
