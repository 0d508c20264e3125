/**
 * Finding 11: SIGTERM while an export runs. The real server runs as a child process on a database
 * filled with enough tickets that the export is still being written when the signal comes (8,000 on
 * either engine; 30,000 only made the set-up and the next start's export longer): the embedded one,
 * and with TEST_DATABASE_URL a PostgreSQL copy of the run's seed (there the pool closes under the
 * export, and its files go to the database store). The process must exit 0, hand the job back
 * (queued, no lease), leave no temporary files, and the next start must finish the job.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseConnection } from '../../server/db/database.ts';
import { summaryTablesDown, summaryTablesUp } from '../../server/db/summary-tables.ts';
import { freePort, startServer, waitFor, type ServerProcess } from './processes.ts';
import { postgresCopy, seededDataFolder } from './seed-copy.ts';

const BULK_TICKETS = 8_000;

const engines = [
  { name: 'embedded database' },
  ...(process.env.TEST_DATABASE_URL ? [{ name: 'PostgreSQL', url: process.env.TEST_DATABASE_URL }] : []),
];

describe.each(engines)('SIGTERM during an export ($name)', (engine) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sd-shutdown-'));
  // The server's temporary folder (TMPDIR), so the test sees the export's files come and go.
  const tmp = join(dataDir, 'tmp');
  // No drain before closing (instances.test.ts tests it): the export must still run when the door closes.
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    TMPDIR: tmp,
    SEED: 'demo',
    SHUTDOWN_DRAIN_MS: '0',
  };
  const servers: ServerProcess[] = [];
  const exportFolders = () => readdirSync(tmp).filter((name) => name.startsWith('sd-export-'));
  /** PostgreSQL: removes the copy of the seed when done. */
  let drop = async () => {};

  /** The database the servers use, opened by the test while (embedded) no server has it open. */
  const open = (): Promise<DatabaseConnection> =>
    env.DATABASE_URL
      ? openDatabase({ url: env.DATABASE_URL, poolSize: 1 })
      : openDatabase({ dataDir: join(dataDir, 'pglite') });

  /** The export job rows. */
  async function jobs() {
    const database = await open();
    try {
      return (
        await sql<{ id: number; status: string; locked_until: unknown; attempts: number }>`
        select id, status, locked_until, attempts from export_jobs order by id`.execute(database.db)
      ).rows;
    } finally {
      await database.close();
    }
  }

  beforeAll(async () => {
    mkdirSync(tmp, { recursive: true });
    if (engine.url) {
      const copy = await postgresCopy(inject('seeds'), engine.url, dataDir, { poolSize: 1 });
      await copy.database.close();
      env.DATABASE_URL = copy.url!;
      drop = copy.drop;
    } else {
      seededDataFolder(inject('seeds'), dataDir);
    }
    // The embedded database takes the tickets in memory, then its folder is written from that dump at
    // once: 30,000 inserts (each through the list, dashboard and search indexes) on the folder itself
    // took minutes of PGlite's one core. On both engines the summary tables are filled once after the
    // insert instead of by three upserts per ticket (most of this set-up's time before). The tickets'
    // SLA clocks count as measured (no recheck due): the background pass would otherwise measure all of
    // them first, holding the embedded database's one connection for most of half a minute per start.
    const database = engine.url
      ? await open()
      : await openDatabase({ loadDataDir: new Blob([await readFile(inject('seeds').pglite.dump)]) });
    let dump: Blob | undefined;
    try {
      await summaryTablesDown(database.db);
      await sql`
        insert into tickets (tenant_id, company_id, status_id, description, sla_recheck_at)
        select t.tenant_id, t.company_id, t.status_id, 'Bulk ticket ' || g, null
        from (select tenant_id, company_id, status_id from tickets order by id limit 1) t,
          generate_series(1, ${BULK_TICKETS}) g`.execute(database.db);
      await summaryTablesUp(database.db);
      if (!engine.url) dump = await database.dumpDataDir!();
    } finally {
      await database.close();
    }
    if (dump) {
      const folder = join(dataDir, 'pglite');
      rmSync(folder, { recursive: true, force: true });
      await (await openDatabase({ dataDir: folder, loadDataDir: dump })).close();
    }
  }, 240_000);

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function signIn(server: ServerProcess) {
    const login = await fetch(`${server.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: 'demo' }),
    });
    expect(login.status).toBe(200);
    const body = (await login.json()) as { access_token: string; user: { id: number } };
    return {
      userId: body.user.id,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${body.access_token}` },
    };
  }

  async function newestJob(server: ServerProcess, headers: Record<string, string>) {
    const res = await fetch(`${server.base}/api/exports`, { headers });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { id: number; status: string; row_count: number | null }[] })
      .data[0];
  }

  it('exits 0, hands the job back, removes its temporary files; the next start finishes the job', async () => {
    const first = startServer({ ...env, PORT: String(await freePort()) });
    servers.push(first);
    await first.ready;
    const { userId, headers } = await signIn(first);
    const queued = await fetch(`${first.base}/api/exports`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ userId, model: 'tickets', filter: [{ orderBy: ['id', 'asc'] }] }),
    });
    expect(queued.status).toBe(200);
    await waitFor(
      'the export to be running with its temporary files',
      async () => (await newestJob(first, headers))?.status === 'running' && exportFolders().length > 0,
    );

    first.child.kill('SIGTERM');
    expect(await first.exited, first.output()).toBe(0);
    expect(first.output()).not.toMatch(/ERR_STREAM_DESTROYED|uncaught/i);
    expect(exportFolders()).toEqual([]);
    const [job] = await jobs();
    expect(job).toMatchObject({ status: 'queued', locked_until: null });

    // Left by a process that was killed (its id no longer runs), and one of a process that runs.
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.once('exit', resolve));
    const abandoned = join(tmp, `sd-export-${dead.pid}-0123456789ab`);
    const live = join(tmp, `sd-export-${process.pid}-0123456789ab`);
    mkdirSync(abandoned);
    mkdirSync(live);

    const second = startServer({ ...env, PORT: String(await freePort()) });
    servers.push(second);
    await second.ready;
    const again = await signIn(second);
    const done = await waitFor(
      'the next start to finish the job',
      async () => {
        const newest = await newestJob(second, again.headers);
        return newest?.status === 'done' || newest?.status === 'failed' ? newest : undefined;
      },
      180_000,
      250,
    );
    expect(done).toMatchObject({ id: job!.id, status: 'done' });
    expect(done.row_count).toBeGreaterThan(BULK_TICKETS);
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(live)).toBe(true);
    rmSync(live, { recursive: true });

    // A request in flight when the signal comes is finished: its body is still arriving.
    const name = 'In flight BV';
    const body = JSON.stringify({ name });
    const request = httpRequest(`${second.base}/api/companies`, {
      method: 'POST',
      headers: { ...again.headers, 'content-length': Buffer.byteLength(body) },
    });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      request.on('response', (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      request.on('error', reject);
    });
    request.write(body.slice(0, 5));
    await waitFor('the request to reach the server', () => request.socket?.writableLength === 0);
    second.child.kill('SIGTERM');
    // The server closed its door (new connections refused): it is shutting down.
    await waitFor('the server to refuse new connections', async () =>
      fetch(`${second.base}/api/health`).then(
        () => false,
        () => true,
      ),
    );
    request.end(body.slice(5));
    const { status, text } = await answer;
    expect(status, text).toBe(201);
    expect(JSON.parse(text)).toMatchObject({ name });
    expect(await second.exited).toBe(0);
    expect(exportFolders()).toEqual([]);
  }, 400_000);
});
