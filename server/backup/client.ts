/**
 * `npm run backup`: asks the running server for the archive over its socket (socket.ts), or, when no
 * server runs, opens the embedded database folder itself. Writes to `<out>.partial` (mode 0600: the
 * archive holds the whole database) and renames it once it has been read back whole.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { embeddedDatabase, openDatabase } from '../db/database.ts';
import { FolderInUse } from '../db/folder-lock.ts';
import { BadArchive, readArchive, type Manifest } from './archive.ts';
import { writeBackup } from './make.ts';
import { socketPath } from './socket.ts';

/** The server's answer over the socket; undefined when no server listens there. */
async function fromServer(dataDir: string): Promise<Readable | undefined> {
  const socket = connect(socketPath(dataDir));
  const connected = await new Promise<boolean>((resolve, reject) => {
    socket.once('connect', () => resolve(true));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? resolve(false) : reject(error),
    );
  });
  if (!connected) return undefined;
  socket.write('backup\n');
  // The first line is the server's verdict; the rest is the archive, left in the socket for the caller.
  await new Promise<void>((resolve, reject) => {
    let head = Buffer.alloc(0);
    const closed = () =>
      reject(new Error('the server closed the backup socket without an answer: see its log'));
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\n');
      if (end < 0) return;
      socket.off('data', onData);
      socket.off('end', closed);
      socket.pause();
      socket.unshift(head.subarray(end + 1));
      const verdict = JSON.parse(head.subarray(0, end).toString('utf8')) as { ok?: boolean; error?: string };
      if (verdict.ok) resolve();
      else reject(new Error(`the server refused the backup: ${verdict.error}`));
    };
    socket.on('data', onData);
    socket.once('end', closed);
    socket.once('error', reject);
  });
  return socket;
}

/** Dumps the folder in this process (no server runs on it). */
async function fromFolder(dataDir: string, out: Writable): Promise<void> {
  const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
  try {
    await writeBackup({ db: database.db, pglite: embeddedDatabase(database.db)!, dataDir }, out);
  } finally {
    await database.close();
  }
}

/** Writes the backup of DATA_DIR `dataDir` to `out` and returns its manifest. */
export async function backupToFile(dataDir: string, out: string): Promise<Manifest> {
  const partial = `${out}.partial`;
  try {
    const file = createWriteStream(partial, { mode: 0o600, flags: 'wx' });
    const answer = await fromServer(dataDir);
    if (answer) await pipeline(answer, file);
    else {
      try {
        await fromFolder(dataDir, file);
      } catch (error) {
        if (error instanceof FolderInUse) {
          throw new Error(
            `${error.message}\nThat server does not answer on ${socketPath(dataDir)}: ` +
              'it may be an older version; stop it and run npm run backup again.',
            { cause: error },
          );
        }
        throw error;
      }
    }
    // Read back whole: a server that failed midway cuts the archive short, and that must not pass.
    const { manifest, fileCount } = await readArchive(createReadStream(partial), async (_key, content) => {
      content.resume();
    });
    if (fileCount !== manifest.files) {
      throw new BadArchive(`the archive holds ${fileCount} files, its manifest says ${manifest.files}`);
    }
    await rename(partial, out);
    return manifest;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}
