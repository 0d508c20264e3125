/**
 * The S3 file store (server/files/s3-store.ts) against an S3-compatible server the test starts
 * (s3rver on loopback, s3-server.ts), around the app: the start-up check of the bucket; through the real
 * app an attachment uploaded, downloaded (also by another instance), swept after its removal, a 503
 * while the store is down and an export that waits for it; and `npm run files:migrate` into the bucket.
 */
import { spawn } from 'node:child_process';
import { cpSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { checkS3Bucket, PART_BYTES, s3FileStore } from '../../server/files/s3-store.ts';
import { fileStoreFor, localFileStore } from '../../server/files/store.ts';
import { sweepFiles } from '../../server/files/sweep.ts';
import { FileStoreUnavailable } from '../../server/files/unavailable.ts';
import { allKeys, generated, runFilesMigrate } from './file-store-contract.ts';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { multipart } from './multipart.ts';
import { startS3Server, type S3TestServer } from './s3-server.ts';
import { bucketObjects, openUploads } from './s3-bucket.ts';
import { PGLITE_NODE_FLAGS } from '../node-flags.ts';

describe('the bucket at start-up', () => {
  let server: S3TestServer;
  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('accepts a bucket that is there, refuses a missing one by its setting, warns when the store is down', async () => {
    expect(await checkS3Bucket(server.settings())).toBeUndefined();
    await expect(checkS3Bucket({ ...server.settings(), bucket: 'elders' })).rejects.toThrow(
      `FILES_S3_BUCKET: the bucket "elders" does not exist at ${server.endpoint}.`,
    );
    await server.stop();
    try {
      expect(await checkS3Bucket(server.settings())).toMatch(
        new RegExp(
          `^The file store \\(${server.endpoint}\\) cannot be reached: .*Files answer 503 until it can\\.$`,
        ),
      );
    } finally {
      await server.start();
    }
  });

  it('stops the server from starting with a bucket that does not exist, saying which setting', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sd-s3-start-'));
    try {
      const result = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [...PGLITE_NODE_FLAGS, '--import', 'tsx', 'server/server.ts'], {
          env: {
            ...process.env,
            DATA_DIR: dataDir,
            DATABASE_URL: '',
            PORT: '0',
            HOST: '127.0.0.1',
            FILES_STORE: 's3',
            FILES_S3_BUCKET: 'ontbreekt',
            FILES_S3_ENDPOINT: server.endpoint,
            FILES_S3_ACCESS_KEY_ID: 'S3RVER',
            FILES_S3_SECRET_ACCESS_KEY: 'S3RVER',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (piece: Buffer) => (output += piece.toString()));
        child.stderr.on('data', (piece: Buffer) => (output += piece.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, output }));
      });
      expect(result.code, result.output).toBe(1);
      expect(result.output).toContain(
        `FILES_S3_BUCKET: the bucket "ontbreekt" does not exist at ${server.endpoint}.`,
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.each(targets)('attachments in S3 on $name', (target) => {
  let server: S3TestServer;
  let t: TestApp;
  const prefix = 'app/';
  beforeAll(async () => {
    server = await startS3Server();
    t = await buildTestApp(target, {
      config: { filesStore: 's3', s3: server.settings(prefix) },
      fileSweepMs: 0,
    });
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  async function upload(content: Buffer, name = 'werkbon.pdf') {
    const admin = await t.as('admin@example.com');
    const form = multipart([], [{ field: 'file', name, content }]);
    return t.app.inject({
      method: 'POST',
      url: '/api/attachments',
      payload: form.payload,
      headers: { ...admin, ...form.headers },
    });
  }

  const pdf = (bytes: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(bytes)]);

  it('stores an upload in the bucket, none on disk, and serves it back', async () => {
    const content = pdf(300_000);
    const uploaded = await upload(content);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { rows } = await sql<{ path: string }>`
      select path from attachments where id = ${uploaded.json().id}`.execute(t.db);
    const key = rows[0]!.path;
    expect(await bucketObjects(server)).toContain(prefix + key);
    // Its own name only: the demo seed's files (copied to disk) may share the folder of its first two digits.
    expect(await readdir(join(t.config.dataDir, 'files', key.slice(0, 2))).catch(() => [])).not.toContain(
      key.slice(3),
    );

    const download = await t.app.inject({ method: 'GET', url: uploaded.json().url });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(Number(download.headers['content-length'])).toBe(content.length);
    expect(download.rawPayload.equals(content)).toBe(true);
  });

  it.skipIf(!target.url)(
    'serves an upload to another instance, which shares only the bucket with it',
    async () => {
      const second = await buildSecondInstance(t);
      try {
        const content = pdf(PART_BYTES + 4321);
        const uploaded = await upload(content, 'groot.pdf');
        expect(uploaded.statusCode, uploaded.body).toBe(201);
        expect(second.config.dataDir).not.toBe(t.config.dataDir);
        const download = await second.app.inject({ method: 'GET', url: uploaded.json().url });
        expect(download.statusCode, download.body).toBe(200);
        expect(download.rawPayload.equals(content)).toBe(true);
      } finally {
        await second.close();
      }
    },
  );

  it('sweeps the object of a removed attachment from the bucket', async () => {
    const uploaded = await upload(pdf(1000), 'weg.pdf');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const id = uploaded.json().id as number;
    const { rows } = await sql<{ path: string }>`select path from attachments where id = ${id}`.execute(t.db);
    const key = rows[0]!.path;
    expect(await bucketObjects(server)).toContain(prefix + key);
    await sql`delete from attachments where id = ${id}`.execute(t.db);
    const result = await sweepFiles(t.db, fileStoreFor(t.config, t.db));
    expect(result.removed).toBeGreaterThanOrEqual(1);
    expect(await bucketObjects(server)).not.toContain(prefix + key);
    expect(await fileStoreFor(t.config, t.db).read(key)).toBeUndefined();
  });

  it('answers 503 with a clear message while the store is down, and serves again once it is back', async () => {
    const content = pdf(5000);
    const uploaded = await upload(content, 'storing.pdf');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const doomed = await upload(pdf(100), 'straks-weg.pdf');
    expect(doomed.statusCode, doomed.body).toBe(201);
    const doomedKey = (
      await sql<{ path: string }>`select path from attachments where id = ${doomed.json().id}`.execute(t.db)
    ).rows[0]!.path;
    await server.stop();
    try {
      const download = await t.app.inject({ method: 'GET', url: uploaded.json().url });
      expect(download.statusCode, download.body).toBe(503);
      expect(download.headers['retry-after']).toBe('5');
      expect(download.json()).toEqual({
        message: 'The file store cannot be reached right now. Try again in a few seconds.',
      });
      const refused = await upload(pdf(2000), 'nieuw.pdf');
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json().message).toBe(
        'The file store cannot be reached right now. Try again in a few seconds.',
      );
      // The refused upload left no attachment row pointing at nothing.
      const names = await sql<{
        name: string;
      }>`select name from attachments where name = 'nieuw.pdf'`.execute(t.db);
      expect(names.rows).toEqual([]);
      // The sweep waits too: the queue keeps what it could not remove.
      await sql`delete from attachments where id = ${doomed.json().id}`.execute(t.db);
      await expect(sweepFiles(t.db, fileStoreFor(t.config, t.db))).rejects.toBeInstanceOf(
        FileStoreUnavailable,
      );
      const queued = await sql`select 1 from file_removals where path = ${doomedKey}`.execute(t.db);
      expect(queued.rows).toHaveLength(1);
    } finally {
      await server.start();
    }
    const again = await t.app.inject({ method: 'GET', url: uploaded.json().url });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.rawPayload.equals(content)).toBe(true);
    expect(await bucketObjects(server)).toContain(prefix + doomedKey);
    await sweepFiles(t.db, fileStoreFor(t.config, t.db));
    expect(await bucketObjects(server)).not.toContain(prefix + doomedKey);
  });

  it('keeps an export queued while the store is down, and finishes it once it is back', async () => {
    const { body } = await t.login('admin@example.com');
    const admin = { authorization: `Bearer ${body.access_token}` };
    const userId = Number(body.user.id);
    const queue = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/exports',
        headers: admin,
        payload: { userId, model: 'tickets', filter: [] },
      });
    const jobOf = (id: number) =>
      t.db
        .selectFrom('export_jobs')
        .select(['status', 'attempts', 'error', 'started_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const newest = async () =>
      Number(
        (await t.db.selectFrom('export_jobs').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow())
          .id,
      );
    /** The job once `done(job)` holds, or as it is when 20 seconds have passed. */
    const until = async (id: number, done: (job: Awaited<ReturnType<typeof jobOf>>) => boolean) => {
      const deadline = Date.now() + 20_000;
      let job = await jobOf(id);
      while (!done(job) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        job = await jobOf(id);
      }
      return job;
    };

    await server.stop();
    let waiting: number;
    try {
      expect((await queue()).statusCode).toBe(200);
      waiting = await newest();
      // Tried (started, its CSV could not be stored) and handed back: queued, not failed, no attempt counted.
      const tried = await until(waiting, (job) => job.started_at !== null && job.status !== 'running');
      expect(tried).toMatchObject({ status: 'queued', attempts: 0, error: null });
    } finally {
      await server.start();
    }
    // A new job wakes the worker, which takes the waiting one first.
    expect((await queue()).statusCode).toBe(200);
    const isDone = (job: { status: string }) => job.status === 'done';
    expect(await until(waiting, isDone)).toMatchObject({ status: 'done', error: null });
    expect(await until(await newest(), isDone)).toMatchObject({ status: 'done' });
  });
});

describe('npm run files:migrate into S3', () => {
  let server: S3TestServer;
  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(async () => {
    await server?.close();
  });

  const migrateCommand = (dataDir: string) =>
    runFilesMigrate(dataDir, {
      FILES_STORE: 's3',
      FILES_S3_BUCKET: server.bucket,
      FILES_S3_ENDPOINT: server.endpoint,
      FILES_S3_ACCESS_KEY_ID: 'S3RVER',
      FILES_S3_SECRET_ACCESS_KEY: 'S3RVER',
      FILES_S3_PREFIX: 'migrated',
    });

  it('copies the local files into the bucket under the same keys, once', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sd-s3-migrate-'));
    try {
      // The bucket keeps no row of this store: the command only opens the database. One a server has
      // already used (the seed's, without its files) spares the first run making and migrating a new one.
      const seeds = inject('seeds');
      if (seeds) cpSync(join(seeds.pglite.folder, 'pglite'), join(dataDir, 'pglite'), { recursive: true });
      const local = localFileStore(join(dataDir, 'files'));
      const small = await local.put(Buffer.from('werkbon'));
      const large = await local.put(generated(PART_BYTES + 9, 50_000, 'groot'));
      const first = await migrateCommand(dataDir);
      expect(first.code, first.output).toBe(0);
      expect(first.output).toContain('Copied 2 files');
      expect(first.output).toContain('into the s3 store (0 already there)');
      const second = await migrateCommand(dataDir);
      expect(second.code, second.output).toBe(0);
      expect(second.output).toContain('Copied 0 files');
      expect(second.output).toContain('(2 already there)');

      const store = s3FileStore(server.settings('migrated/'));
      expect((await store.read(small.key))?.toString()).toBe('werkbon');
      expect((await store.read(large.key))?.equals((await local.read(large.key))!)).toBe(true);
      expect(await allKeys(store)).toEqual([small.key, large.key].sort());
      expect(await openUploads(server)).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
