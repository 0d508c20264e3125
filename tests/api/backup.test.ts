/**
 * Issue 32 item 3: npm run backup while a real server process writes (tickets, messages with an
 * attachment), npm run restore into a new folder, and a second server on that folder finds every record
 * made before the backup began and every attachment's bytes; every attachment row the archive holds
 * has its file. Restore refuses a folder that is not empty and an archive of a newer version; a
 * database that ran a migration this code does not know refuses to start, on PGlite and PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PGLITE_NODE_FLAGS } from '../node-flags.ts';
import { embeddedDatabase, openDatabase } from '../../server/db/database.ts';
import { archiveWriter } from '../../server/backup/archive.ts';
import { restoreFromFile } from '../../server/backup/restore.ts';
import { freePort, startServer, type ServerProcess } from './processes.ts';
import { multipart } from './multipart.ts';
import { databaseUrl, dropDatabase, onServer, seededDataFolder } from './seed-copy.ts';

/** A script of ours in its own node process: its exit code and everything it printed. */
function runScript(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    let output = '';
    const child = spawn(process.execPath, [...PGLITE_NODE_FLAGS, '--import', 'tsx', script, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

// No balancer watches these servers: a stop need not answer not-ready for SHUTDOWN_DRAIN_MS (5 s) first.
const NO_DRAIN = { SHUTDOWN_DRAIN_MS: '0' };

const unknownMigration = '9999_from_a_newer_version';

interface Written {
  ticket: number;
  message: number;
  attachment: number;
  bytes: Buffer;
}

describe('npm run backup and npm run restore on the embedded database', () => {
  const work = mkdtempSync(join(tmpdir(), 'sd-backup-'));
  const dataDir = join(work, 'data');
  const restored = join(work, 'restored');
  const archive = join(work, 'desk.tar.gz');
  let server: ServerProcess;
  let second: ServerProcess | undefined;

  const login = async (base: string) => {
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: 'demo' }),
    });
    expect(res.status).toBe(200);
    return { authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
  };

  /** One ticket and a message on it with one attachment, through the API. */
  const writeOne = async (base: string, auth: Record<string, string>, n: number): Promise<Written> => {
    const ticket = await fetch(`${base}/api/tickets`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ description: `Backup test ${n}` }),
    });
    expect(ticket.status, await ticket.clone().text()).toBe(201);
    const ticketId = Number(((await ticket.json()) as { id: number }).id);
    // Text: the kinds allowed do not include arbitrary binary files.
    const bytes = Buffer.from(randomBytes(1000 + n).toString('hex'));
    const form = multipart(
      [
        ['morphable_type', 'ticket'],
        ['morphable_id', String(ticketId)],
        ['message', `<p>Bericht ${n}</p>`],
        ['visible_to_client', '1'],
      ],
      [{ field: 'file[0]', name: `bijlage-${n}.txt`, content: bytes }],
    );
    const message = await fetch(`${base}/api/messages`, {
      method: 'POST',
      headers: { ...auth, ...form.headers },
      body: new Uint8Array(form.payload),
    });
    expect(message.status, await message.clone().text()).toBe(201);
    const body = (await message.json()) as { id: number; attachments: { id: number }[] };
    return { ticket: ticketId, message: body.id, attachment: body.attachments[0]!.id, bytes };
  };

  beforeAll(async () => {
    seededDataFolder(inject('seeds'), dataDir);
    server = startServer({ PORT: String(await freePort()), DATA_DIR: dataDir, SEED: 'demo', ...NO_DRAIN });
    await server.ready;
  }, 120_000);

  afterAll(async () => {
    if (server && !server.hasExited()) await server.stop();
    if (second && !second.hasExited()) await second.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('restores a backup made while the server writes: every earlier record and file, every file of a row', async () => {
    const auth = await login(server.base);
    const before: Written[] = [];
    for (let n = 0; n < 3; n++) before.push(await writeOne(server.base, auth, n));
    // Writes go on all through the backup; the ones finished before it began must all come back.
    let writing = true;
    let n = 3;
    const during: Written[] = [];
    const writer = (async () => {
      while (writing) {
        during.push(await writeOne(server.base, auth, n++));
        // A desk's pace, not a benchmark's: the backup shares two cores with these writes.
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const backup = await runScript('scripts/backup.ts', ['--out', archive], { DATA_DIR: dataDir });
    writing = false;
    await writer;
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/Backup written to .*desk\.tar\.gz: database at \d{4}_\w+, \d+ files\./);
    // The server went on writing while it made the dump: the test proves nothing otherwise.
    expect(during.length).toBeGreaterThan(0);

    const restore = await runScript('scripts/restore.ts', [archive, '--data-dir', restored], {});
    expect(restore.code, restore.output).toBe(0);
    second = startServer({ PORT: String(await freePort()), DATA_DIR: restored, SEED: 'demo', ...NO_DRAIN });
    await second.ready;
    const auth2 = await login(second.base);
    for (const w of before) {
      const ticket = await fetch(`${second.base}/api/tickets/${w.ticket}`, { headers: auth2 });
      expect(ticket.status).toBe(200);
      const message = await fetch(`${second.base}/api/messages/${w.message}`, { headers: auth2 });
      expect(message.status).toBe(200);
      const file = await fetch(`${second.base}/api/attachments/${w.attachment}/file`, { headers: auth2 });
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(w.bytes)).toBe(true);
    }
    // Rows made during the backup may be in it or not; each one that is has its file, byte for byte.
    const rows: { id: number }[] = [];
    for (let page = 1; ; page++) {
      const list = await fetch(`${second.base}/api/attachments?builder[0][paginate]=100&page=${page}`, {
        headers: auth2,
      });
      expect(list.status).toBe(200);
      const { data } = (await list.json()) as { data: { id: number }[] };
      rows.push(...data);
      if (data.length < 100) break;
    }
    expect(rows.length).toBeGreaterThanOrEqual(before.length);
    const written = new Map([...before, ...during].map((w) => [w.attachment, w.bytes]));
    for (const row of rows) {
      const file = await fetch(`${second.base}/api/attachments/${row.id}/file`, { headers: auth2 });
      expect(file.status, `attachment ${row.id}`).toBe(200);
      const bytes = Buffer.from(await file.arrayBuffer());
      if (written.has(row.id)) expect(bytes.equals(written.get(row.id)!)).toBe(true);
    }
  }, 240_000);

  // Uses the archive the test above made.
  it('refuses to restore into a folder that holds anything, and leaves it as it was', async () => {
    const target = mkdtempSync(join(work, 'full-'));
    writeFileSync(join(target, 'keep.txt'), 'mine');
    const restore = await runScript('scripts/restore.ts', [archive, '--data-dir', target], {});
    expect(restore.code).toBe(1);
    expect(restore.output).toContain(`${target} is not empty: restore into a new or empty folder`);
    expect(readdirSync(target)).toEqual(['keep.txt']);
  }, 60_000);

  it('refuses an archive made by a newer version, writing nothing', async () => {
    const newer = join(work, 'newer.tar.gz');
    const writer = archiveWriter(createWriteStream(newer));
    await writer.add('database.tar', Buffer.from('not looked at'));
    const manifest = { format: 1, app: 'service-desk', version: '9.0.0', latestMigration: unknownMigration };
    await writer.add('manifest.json', Buffer.from(JSON.stringify({ ...manifest, createdAt: '', files: 0 })));
    await writer.finish();
    const target = join(work, 'from-newer');
    // In this process: the command's exit code and message are the test above's.
    await expect(restoreFromFile(newer, target)).rejects.toThrow(
      `the backup was made by a newer version of the service desk (version 9.0.0, migration ${unknownMigration}`,
    );
    expect(existsSync(target)).toBe(false);
  });

  // On the folder the first test restored (opening one is fast; making a new database is not).
  it('refuses to start on a database that ran a migration this version does not know, changing nothing', async () => {
    await second?.stop();
    const folder = join(restored, 'pglite');
    const tickets = `select count(*)::int as n from tickets`;
    const database = await openDatabase({ dataDir: folder });
    const pglite = embeddedDatabase(database.db)!;
    await pglite.exec(
      `insert into kysely_migration values ('${unknownMigration}', '2030-01-01T00:00:00.000Z')`,
    );
    const before = (await pglite.query<{ n: number }>(tickets)).rows[0]!.n;
    await database.close();
    const refused = startServer({ PORT: String(await freePort()), DATA_DIR: restored, SEED: 'demo' });
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain(
      `it has run migration ${unknownMigration}, which this version does not know`,
    );
    expect(refused.output()).toContain('restore the backup taken before the upgrade');
    const after = await openDatabase({ dataDir: folder });
    const { rows } = await embeddedDatabase(after.db)!.query<{ n: number }>(tickets);
    await after.close();
    expect(rows[0]!.n).toBe(before);
  }, 90_000);
});

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('a PostgreSQL database that ran a migration this version does not know', () => {
  const name = `backup_newer_${randomBytes(4).toString('hex')}`;
  afterAll(() => dropDatabase(adminUrl!, name));

  it('refuses to start, naming the migration and the way back, and changes nothing', async () => {
    await onServer(adminUrl!, `create database "${name}"`);
    const url = databaseUrl(adminUrl!, name);
    await onServer(
      url,
      `create table kysely_migration (name varchar(255) primary key, timestamp varchar(255) not null);
       insert into kysely_migration values ('${unknownMigration}', '2030-01-01T00:00:00.000Z')`,
    );
    const dataDir = mkdtempSync(join(tmpdir(), 'sd-backup-pg-'));
    try {
      const refused = startServer({
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        DATABASE_URL: url,
        SEED: 'demo',
      });
      expect(await refused.exited).toBe(1);
      expect(refused.output()).toContain(
        `it has run migration ${unknownMigration}, which this version does not know`,
      );
      expect(refused.output()).toContain('restore the backup taken before the upgrade');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    const { rows } = await onServer(
      url,
      `select table_name from information_schema.tables where table_schema = 'public'`,
    );
    expect(rows.map((r: { table_name: string }) => r.table_name)).toEqual(['kysely_migration']);
  }, 60_000);
});
