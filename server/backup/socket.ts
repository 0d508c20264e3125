/**
 * How `npm run backup` reaches a running server: the embedded database folder is locked to the server
 * process (db/folder-lock.ts), so the server makes the dump. It listens on a Unix socket in DATA_DIR,
 * mode 0600: whoever may read DATA_DIR may take a backup, which is the authority a backup is anyway
 * (the folder holds the database). Never an HTTP route: nothing on the network can ask for one.
 *
 * Protocol: the client sends `backup\n`; the server answers one JSON line ({"ok":true} or
 * {"error":"…"}) and then, when ok, the archive's bytes, and closes.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeBackup, type BackupSource } from './make.ts';

export const socketPath = (dataDir: string) => join(dataDir, 'backup.sock');

/** Unix socket paths are limited to about 100 bytes (sun_path). */
const MAX_SOCKET_PATH = 100;

interface Log {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

function serve(socket: Socket, source: BackupSource, log: Log) {
  let request = '';
  socket.setEncoding('latin1');
  const onData = (chunk: string) => {
    request += chunk;
    if (!request.includes('\n')) {
      if (request.length > 64) socket.destroy();
      return;
    }
    socket.off('data', onData);
    if (request.split('\n')[0] !== 'backup') {
      socket.end(`${JSON.stringify({ error: 'unknown request: send "backup"' })}\n`);
      return;
    }
    socket.write(`${JSON.stringify({ ok: true })}\n`);
    const started = Date.now();
    writeBackup(source, socket).then(
      (manifest) => log.info({ files: manifest.files, ms: Date.now() - started }, 'backup written'),
      (error: unknown) => {
        // The client sees the archive cut short and says so; the reason is in this log.
        log.warn({ err: error }, 'backup failed');
        socket.destroy();
      },
    );
  };
  socket.on('data', onData);
  socket.on('error', () => undefined);
}

/** Listens for backup requests in `source.dataDir`; undefined (with a warning) where it cannot. */
export async function serveBackups(source: BackupSource, log: Log): Promise<Server | undefined> {
  const path = socketPath(source.dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    log.warn(
      { path },
      'DATA_DIR path too long for the backup socket: npm run backup needs the server stopped',
    );
    return undefined;
  }
  // A socket file left by a killed server: we hold the folder lock, so it is no one else's.
  rmSync(path, { force: true });
  const server = createServer((socket) => serve(socket, source, log));
  // The socket is created with the umask's mode: none for group and others from the first moment.
  // listen() binds synchronously, so the umask is put back before anything else runs.
  const umask = process.umask(0o177);
  let listening: Promise<void>;
  try {
    listening = new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
  } finally {
    process.umask(umask);
  }
  await listening;
  chmodSync(path, 0o600);
  server.on('close', () => rmSync(path, { force: true }));
  return server;
}
