/**
 * The S3 file store (server/files/s3-store.ts) against an S3-compatible server the test starts
 * (s3rver on loopback, s3-server.ts): the behavioural suite of every store (file-store-contract.ts);
 * what only this store does: multipart uploads one part in memory at a time (a large file within a
 * memory bound), aborted on failure and swept when abandoned, a key prefix per deployment, the local
 * folder of before the switch read as a fallback.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PART_BYTES, s3ClientFor, s3FileStore } from '../../server/files/s3-store.ts';
import { localFileStore, type FileStore } from '../../server/files/store.ts';
import {
  allKeys,
  collect,
  describeFileStoreContract,
  failing,
  generated,
  type Backend,
} from './file-store-contract.ts';
import { roundTripUnderWatch } from './memory-bound.ts';
import { startS3Server, type S3TestServer } from './s3-server.ts';
import { bucketObjects, openUploads, unfinishedUpload } from './s3-bucket.ts';

async function s3Backend(): Promise<Backend> {
  const server = await startS3Server();
  const prefix = 'desk/contract/';
  return {
    name: 's3',
    store: s3FileStore(server.settings(prefix)),
    leftovers: () => openUploads(server),
    abandonedWrite: async (hoursAgo) => void (await unfinishedUpload(server, prefix, hoursAgo)),
    close: () => server.close(),
  };
}

describeFileStoreContract([{ name: 's3', make: s3Backend }]);

describe('the S3 file store', () => {
  let server: S3TestServer;
  let store: FileStore;
  const prefix = 'desk/prod/';
  beforeAll(async () => {
    server = await startS3Server();
    store = s3FileStore(server.settings(prefix));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes a file of several parts as one object, under the prefix, and reads it back whole', async () => {
    const size = 2 * PART_BYTES + 12_345;
    const expected = await collect(generated(size, 100_003, 'parts'));
    const { key, size: stored } = await store.put(generated(size, 100_003, 'parts'));
    expect(stored).toBe(size);
    expect(await bucketObjects(server)).toEqual([prefix + key]);
    const file = await store.open(key);
    expect(file?.size).toBe(size);
    expect((await collect(file!.stream)).equals(expected)).toBe(true);
    expect(await openUploads(server)).toBe(0);
    await store.remove(key);
    expect(await bucketObjects(server)).toEqual([]);
  });

  it('keeps a file of exactly one part, and a Buffer larger than a part', async () => {
    const one = await store.put(generated(PART_BYTES, 1 << 20, 'one'));
    expect(one.size).toBe(PART_BYTES);
    expect((await store.read(one.key))?.equals(await collect(generated(PART_BYTES, 1 << 20, 'one')))).toBe(
      true,
    );
    const content = randomBytes(PART_BYTES + 1);
    const big = await store.put(content);
    expect(big.size).toBe(content.length);
    expect((await store.read(big.key))?.equals(content)).toBe(true);
    await store.remove(one.key);
    await store.remove(big.key);
  });

  it('aborts the multipart upload of a put whose content fails after its first part', async () => {
    const before = await allKeys(store);
    await expect(store.put(failing(PART_BYTES + 1000))).rejects.toThrow('the client went away');
    expect(await allKeys(store)).toEqual(before);
    expect(await openUploads(server)).toBe(0);
  });

  it('keeps deployments with different prefixes apart in one bucket', async () => {
    const other = s3FileStore(server.settings('desk/test/'));
    const { key } = await store.put(Buffer.from('productie'));
    // Not a file key of ours: another program's object under our prefix is never listed or opened.
    await s3ClientFor(server.settings()).send(
      new PutObjectCommand({ Bucket: server.bucket, Key: `${prefix}notes.txt`, Body: 'x' }),
    );
    expect(await allKeys(store)).toEqual([key]);
    expect(await allKeys(other)).toEqual([]);
    expect(await other.open(key)).toBeUndefined();
    await other.remove(key);
    expect((await store.read(key))?.toString()).toBe('productie');
    expect(await bucketObjects(server)).toEqual([`${prefix}notes.txt`, prefix + key].sort());
    await store.remove(key);
  });

  it('sweeps an upload left long ago only once its last part is old too, and only under its prefix', async () => {
    const slow = await unfinishedUpload(server, prefix, 3, 0);
    const other = await unfinishedUpload(server, 'desk/test/', 3);
    const hourAgo = new Date(Date.now() - 3_600_000);
    // Started three hours ago but sent a part just now: a slow client, still uploading.
    expect(await store.removeAbandoned(hourAgo)).toBe(0);
    const part = join(server.uploadsDir, slow, '1');
    const threeHoursAgo = new Date(Date.now() - 3 * 3_600_000);
    await utimes(part, threeHoursAgo, threeHoursAgo);
    expect(await store.removeAbandoned(hourAgo)).toBe(1);
    expect(await readdir(server.uploadsDir)).toEqual([other]);
    expect(await s3FileStore(server.settings('desk/test/')).removeAbandoned(hourAgo)).toBe(1);
    expect(await openUploads(server)).toBe(0);
  });

  it('reads a key it does not hold from the local folder of before the switch', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sd-s3-fallback-'));
    try {
      const local = localFileStore(root);
      const old = await local.put(Buffer.from('van voor de overstap'));
      const withFallback = s3FileStore(server.settings(prefix), { fallback: local });
      expect((await withFallback.read(old.key))?.toString()).toBe('van voor de overstap');
      await withFallback.remove(old.key);
      expect(await local.read(old.key)).toBeUndefined();
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

// The memory test samples what is kept after a collection; the flag only adds the gc function.

describe('the S3 file store with a large file', () => {
  let server: S3TestServer;
  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('writes and reads back a 48 MB file with memory growth well below its size', async () => {
    const SIZE = 48 * 1024 * 1024;
    // One part buffered (8 MB, briefly with the half-size buffer it grew from) plus what the sockets
    // and s3rver (in this process too) hold: far below the file.
    const KEPT_LIMIT = 24 * 1024 * 1024;
    const RSS_LIMIT = 44 * 1024 * 1024;
    const store = s3FileStore(server.settings());
    const { key, keptGrowth, rssGrowth } = await roundTripUnderWatch(store, {
      size: SIZE,
      // One-time costs (the client's sockets, compiled code, a first part buffer) are not the file's.
      warmBytes: PART_BYTES + 10,
      keptLimit: KEPT_LIMIT,
    });
    expect(keptGrowth, 'buffers kept').toBeLessThan(KEPT_LIMIT);
    expect(rssGrowth, 'rss growth').toBeLessThan(RSS_LIMIT);
    await store.remove(key);
    expect(await openUploads(server)).toBe(0);
  }, 120_000);
});
