/**
 * The file stores behind FILES_STORE (server/files/store.ts, postgres-store.ts): the behavioural suite
 * of every store (file-store-contract.ts) run against the local folder and the database store (on PGlite and, with TEST_DATABASE_URL, on
 * PostgreSQL), then what only the database store promises: a 50 MB file streamed in and out in
 * bounded memory, downloads that stop half way without holding connections, and abandoned writes
 * swept; and the copy of a local folder into the store (`files:migrate`) stores every file once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase, type DatabaseConnection } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { fileStoreFor, localFileStore, newKey } from '../../server/files/store.ts';
import { sweepFiles } from '../../server/files/sweep.ts';
import { CHUNK_BYTES, postgresFileStore } from '../../server/files/postgres-store.ts';
import { buildSecondInstance, buildTestApp, targets, type Target, type TestApp } from './harness.ts';
import { roundTripUnderWatch } from './memory-bound.ts';
import { pgliteCopy, postgresCopy } from './seed-copy.ts';
import { multipart } from './multipart.ts';
import {
  allKeys,
  describeFileStoreContract,
  generated,
  localBackend,
  runFilesMigrate,
  type Backend,
} from './file-store-contract.ts';

/**
 * A migrated database of its own. A copy of the run's seed (seed-copy.ts) when there is one: the seed
 * keeps its files on disk, so the store's tables start empty, and loading it takes PGlite a fraction of
 * migrating a new database (about 4 s against 16 s on a busy machine). Without it (another config), a
 * new one: in memory on PGlite, a schema of its own on PostgreSQL.
 */
async function freshDatabase(
  target: Target,
  poolSize = 4,
): Promise<{ database: DatabaseConnection; drop(): Promise<void> }> {
  const seeds = inject('seeds');
  if (seeds) {
    // The copy brings the seed's files along; none of them is wanted here.
    const dataDir = await mkdtemp(join(tmpdir(), 'sd-files-db-'));
    const copy = await (
      target.url ? postgresCopy(seeds, target.url, dataDir, { poolSize }) : pgliteCopy(seeds, dataDir)
    ).finally(() => rm(dataDir, { recursive: true, force: true }));
    await migrateToLatest(copy.database.db);
    return {
      database: copy.database,
      async drop() {
        await copy.database.close();
        await copy.drop();
      },
    };
  }
  if (!target.url) {
    const database = await openDatabase({});
    await migrateToLatest(database.db);
    return { database, drop: () => database.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  const database = await openDatabase({ url: target.url, schema, poolSize });
  await migrateToLatest(database.db, schema);
  return {
    database,
    async drop() {
      await sql.raw(`drop schema ${schema} cascade`).execute(database.db);
      await database.close();
    },
  };
}

async function postgresBackend(target: Target): Promise<Backend & { database: DatabaseConnection }> {
  const { database, drop } = await freshDatabase(target);
  const db = database.db;
  return {
    name: `postgres store on ${target.name}`,
    store: postgresFileStore(db),
    database,
    async leftovers() {
      // Keys of unfinished writes, by their file row or by chunks without a complete file.
      const { rows } = await sql<{ n: number }>`
        select count(*) as n from (
          select key from stored_files where not complete
          union
          select key from stored_file_chunks c
          where not exists (select 1 from stored_files f where f.key = c.key and f.complete)) unfinished`.execute(
        db,
      );
      return Number(rows[0]!.n);
    },
    async abandonedWrite(hoursAgo) {
      const key = newKey();
      await sql`insert into stored_files (key, touched_at)
        values (${key}, now() - make_interval(hours => ${hoursAgo}))`.execute(db);
      await sql`insert into stored_file_chunks (key, seq, data) values (${key}, 0, ${Buffer.from('half')})`.execute(
        db,
      );
    },
    close: drop,
  };
}

const backends: { name: string; make: () => Promise<Backend> }[] = [
  { name: 'local', make: localBackend },
  ...targets.map((target) => ({ name: `postgres on ${target.name}`, make: () => postgresBackend(target) })),
];

describeFileStoreContract(backends);

// The memory test samples what is kept after a collection; the flag only adds the gc function.

describe.each(targets.filter((t) => t.name === 'postgres'))('the database file store on $name', (target) => {
  let b: Awaited<ReturnType<typeof postgresBackend>>;
  beforeAll(async () => {
    b = await postgresBackend(target);
  });
  afterAll(async () => {
    await b?.close();
  });

  it('writes and reads back a 50 MB file with memory growth well below its size', async () => {
    const SIZE = 50 * 1024 * 1024;
    // What the stream keeps must stay far below the file: a few chunks in flight, never the file.
    const KEPT_LIMIT = 16 * 1024 * 1024;
    // The process grows more than it keeps (pg reads bytea as hex text, the heap expands for it and
    // does not hand pages back at once); a file held whole would add 50 MB at least.
    const RSS_LIMIT = 40 * 1024 * 1024;
    const { key, keptGrowth, rssGrowth } = await roundTripUnderWatch(b.store, {
      size: SIZE,
      // One-time costs (the pool's connections, compiled code) are not the stream's.
      warmBytes: 4 * CHUNK_BYTES,
      keptLimit: KEPT_LIMIT,
    });
    const chunks = await sql<{
      n: number;
    }>`select count(*) as n from stored_file_chunks where key = ${key}`.execute(b.database.db);
    expect(Number(chunks.rows[0]!.n)).toBe(SIZE / CHUNK_BYTES);
    expect(keptGrowth, 'buffers kept').toBeLessThan(KEPT_LIMIT);
    expect(rssGrowth, 'rss growth').toBeLessThan(RSS_LIMIT);
    await b.store.remove(key);
    expect(await b.leftovers()).toBe(0);
  }, 120_000);
});

describe.each(targets.filter((t) => t.name === 'postgres'))(
  'attachments in the database on $name',
  (target) => {
    let a: TestApp;
    let second: TestApp;
    beforeAll(async () => {
      a = await buildTestApp(target, { config: { filesStore: 'postgres' } });
      second = await buildSecondInstance(a);
    });
    afterAll(async () => {
      await second?.close();
      await a?.close();
    });

    it('serves an upload to one instance from another, which shares no disk with it', async () => {
      const admin = await a.as('admin@example.com');
      const content = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(CHUNK_BYTES + 123)]);
      const form = multipart([], [{ field: 'file', name: 'werkbon.pdf', content }]);
      const uploaded = await a.app.inject({
        method: 'POST',
        url: '/api/attachments',
        payload: form.payload,
        headers: { ...admin, ...form.headers },
      });
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      const row = await sql<{
        path: string;
      }>`select path from attachments where id = ${uploaded.json().id}`.execute(a.db);
      const key = row.rows[0]!.path;
      const stored = await sql<{
        size: number;
      }>`select size from stored_files where key = ${key} and complete`.execute(a.db);
      expect(Number(stored.rows[0]?.size)).toBe(content.length);
      // Nothing on the first instance's disk: the second could not have read it from there anyway.
      // Its own name only: the demo seed's files (copied to disk) may share the folder of its first two digits.
      expect(await readdir(join(a.config.dataDir, 'files', key.slice(0, 2))).catch(() => [])).not.toContain(
        key.slice(3),
      );

      const download = await second.app.inject({ method: 'GET', url: uploaded.json().url });
      expect(download.statusCode, download.body).toBe(200);
      expect(download.headers['content-type']).toBe('application/pdf');
      expect(Number(download.headers['content-length'])).toBe(content.length);
      expect(download.rawPayload.equals(content)).toBe(true);
    });
  },
);

describe.each(targets)('the demo seed and the sweep with the database store on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    // Seeded from scratch (a statement timeout skips the run's seed copy, whose files are on disk):
    // the seed writes its files through its own transaction, on PGlite's only connection too.
    t = await buildTestApp(target, { config: { filesStore: 'postgres' }, statementTimeoutMs: 60_000 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps the demo files in the database, and the sweep removes a deleted attachment’s file', async () => {
    const { rows } = await sql<{ id: number; path: string; size: number }>`
      select a.id, a.path, f.size from attachments a left join stored_files f on f.key = a.path and f.complete
      order by a.id`.execute(t.db);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.size, row.path).not.toBeNull();
    expect(await readdir(join(t.config.dataDir, 'files')).catch(() => [])).toEqual([]);

    const store = fileStoreFor(t.config, t.db);
    const victim = rows[0]!;
    expect(await store.read(victim.path)).toBeDefined();
    await sql`delete from attachments where id = ${victim.id}`.execute(t.db);
    const result = await sweepFiles(t.db, store);
    expect(result.removed).toBe(1);
    expect(await store.read(victim.path)).toBeUndefined();
    const left = await sql`select 1 from stored_files where key = ${victim.path}`.execute(t.db);
    expect(left.rows).toEqual([]);
  });
});

describe.each(targets)('the database file store without its database on $name', (target) => {
  it('fails a put and the stream it was reading, so an upload piped into it ends', async () => {
    const { database, drop } = await freshDatabase(target);
    const store = postgresFileStore(database.db);
    await drop();
    // As an upload feeds the store: the request's part piped into a stream the store reads.
    const into = new Transform({ transform: (piece, _encoding, callback) => callback(null, piece) });
    const fed = pipeline(generated(CHUNK_BYTES * 2, 64 * 1024, 'gone'), into);
    await expect(store.put(into)).rejects.toThrow();
    await expect(fed).rejects.toThrow();
    expect(into.destroyed).toBe(true);
  });
});

describe('npm run files:migrate', () => {
  const migrateCommand = (dataDir: string) => runFilesMigrate(dataDir, { FILES_STORE: 'postgres' });

  it('copies the local files into the store once and says how many', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sd-migrate-'));
    try {
      const local = localFileStore(join(dataDir, 'files'));
      const small = await local.put(Buffer.from('werkbon'));
      const large = await local.put(generated(CHUNK_BYTES * 2 + 9, 50_000, 'groot'));
      const first = await migrateCommand(dataDir);
      expect(first.code, first.output).toBe(0);
      expect(first.output).toContain('Copied 2 files');
      expect(first.output).toContain('(0 already there)');
      const second = await migrateCommand(dataDir);
      expect(second.code, second.output).toBe(0);
      expect(second.output).toContain('Copied 0 files');
      expect(second.output).toContain('(2 already there)');

      const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
      try {
        const store = postgresFileStore(database.db);
        expect((await store.read(small.key))?.toString()).toBe('werkbon');
        expect((await store.read(large.key))?.equals((await local.read(large.key))!)).toBe(true);
        expect(await allKeys(store)).toEqual([small.key, large.key].sort());
      } finally {
        await database.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
