/**
 * What every file store promises (server/files/store.ts), as one suite each store's test file runs
 * against its own backend: file-stores.test.ts for the local folder and the database, s3-store-objects.test.ts
 * for an S3-compatible server. A new store passes the same suite rather than a copy of it.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFileStore, newKey, type FileStore } from '../../server/files/store.ts';
import { CHUNK_BYTES } from '../../server/files/postgres-store.ts';
import { copyLocalFiles } from '../../server/files/migrate-local.ts';
import { PGLITE_NODE_FLAGS } from '../node-flags.ts';

/**
 * `npm run files:migrate` as an operator runs it, on an embedded database in `dataDir` (DATA_DIR), with
 * the store's settings in `env`: its exit code and everything it printed.
 */
export function runFilesMigrate(
  dataDir: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...PGLITE_NODE_FLAGS, '--import', 'tsx', 'scripts/files-migrate.ts'],
      {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', SEED: 'none', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (piece: Buffer) => (output += piece.toString()));
    child.stderr.on('data', (piece: Buffer) => (output += piece.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** `size` bytes in pieces of `piece` bytes, never all in memory; the same bytes for the same seed. */
export function generated(size: number, piece = 64 * 1024, seed = 'x'): Readable {
  let made = 0;
  const block = createHash('sha512').update(seed).digest();
  return new Readable({
    read() {
      if (made >= size) return void this.push(null);
      const length = Math.min(piece, size - made);
      const bytes = Buffer.alloc(length);
      for (let i = 0; i < length; i += block.length) block.copy(bytes, i);
      bytes.writeUInt32BE(made % 0xffffffff, 0);
      made += length;
      this.push(bytes);
    },
  });
}

/** A stream that sends `before` bytes and then fails, as an upload cut off by its client. */
export function failing(before: number): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(randomBytes(before));
      } else this.destroy(new Error('the client went away'));
    },
  });
}

export async function collect(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream as AsyncIterable<Buffer>) parts.push(part);
  return Buffer.concat(parts);
}

export async function allKeys(store: FileStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.keys()) keys.push(key);
  return keys.sort();
}

/** One backend: the store, and what is left of unfinished writes in its own terms. */
export interface Backend {
  name: string;
  store: FileStore;
  /** Bytes or rows of unfinished and removed writes still present (0 when nothing is left). */
  leftovers(): Promise<number>;
  /** An unfinished write, as a process that died mid-upload leaves it, last touched `hoursAgo`. */
  abandonedWrite(hoursAgo: number): Promise<void>;
  close(): Promise<void>;
}

export async function localBackend(): Promise<Backend> {
  const root = await mkdtemp(join(tmpdir(), 'sd-files-'));
  const files = async (): Promise<string[]> => {
    const found: string[] = [];
    for (const folder of await readdir(root).catch(() => [])) {
      for (const name of await readdir(join(root, folder))) found.push(`${folder}/${name}`);
    }
    return found;
  };
  const store = localFileStore(root);
  return {
    name: 'local',
    store,
    leftovers: async () => (await files()).filter((f) => f.endsWith('.part')).length,
    async abandonedWrite(hoursAgo) {
      const key = newKey();
      const path = join(root, `${key}.${randomBytes(4).toString('hex')}.part`);
      await mkdir(join(root, key.slice(0, 2)), { recursive: true });
      await writeFile(path, 'half');
      const when = new Date(Date.now() - hoursAgo * 3_600_000);
      await utimes(path, when, when);
    },
    close: () => rm(root, { recursive: true, force: true }),
  };
}

/** The behavioural suite, once per backend. */
export function describeFileStoreContract(backends: { name: string; make: () => Promise<Backend> }[]): void {
  describe.each(backends)('the $name file store', ({ make }) => {
    let b: Backend;
    beforeAll(async () => {
      b = await make();
    });
    afterAll(async () => {
      await b?.close();
    });

    it('keeps a file under a random key: opens, reads, lists and removes it', async () => {
      const content = randomBytes(1000);
      const { key, size } = await b.store.put(content);
      expect(key).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{30}$/);
      expect(size).toBe(1000);
      const file = await b.store.open(key);
      expect(file?.size).toBe(1000);
      expect((await collect(file!.stream)).equals(content)).toBe(true);
      expect((await b.store.read(key))?.equals(content)).toBe(true);
      expect(await allKeys(b.store)).toContain(key);
      await b.store.remove(key);
      expect(await b.store.open(key)).toBeUndefined();
      expect(await b.store.read(key)).toBeUndefined();
      expect(await allKeys(b.store)).not.toContain(key);
      await b.store.remove(key);
    });

    it('streams in a file of many chunks, in pieces that do not line up with them', async () => {
      const size = 3 * CHUNK_BYTES + 17;
      const expected = await collect(generated(size, 50_001, 'odd'));
      const { key, size: stored } = await b.store.put(generated(size, 50_001, 'odd'));
      expect(stored).toBe(size);
      const file = await b.store.open(key);
      expect(file?.size).toBe(size);
      const back = await collect(file!.stream);
      expect(back.length).toBe(size);
      expect(back.equals(expected)).toBe(true);
      await b.store.remove(key);
    });

    it('keeps an empty file as empty', async () => {
      const { key, size } = await b.store.put(Buffer.alloc(0));
      expect(size).toBe(0);
      const file = await b.store.open(key);
      expect(file?.size).toBe(0);
      expect((await collect(file!.stream)).length).toBe(0);
      await b.store.remove(key);
    });

    it('leaves nothing of a put whose content fails half way', async () => {
      const before = await allKeys(b.store);
      await expect(b.store.put(failing(CHUNK_BYTES + 1000))).rejects.toThrow('the client went away');
      expect(await allKeys(b.store)).toEqual(before);
      expect(await b.leftovers()).toBe(0);
    });

    it('answers unknown and malformed keys with nothing, never a path or a query of their own', async () => {
      const unknown = newKey();
      expect(await b.store.open(unknown)).toBeUndefined();
      expect(await b.store.read(unknown)).toBeUndefined();
      await b.store.remove(unknown);
      const { key } = await b.store.put(Buffer.from('kept'));
      for (const bad of [
        '',
        '../../etc/passwd',
        key.toUpperCase(),
        `${key}/..`,
        `${key}' or '1'='1`,
        key + 'a',
      ]) {
        expect(await b.store.open(bad), bad).toBeUndefined();
        expect(await b.store.read(bad), bad).toBeUndefined();
        await b.store.remove(bad);
        await expect(b.store.putAt(bad, Buffer.from('x')), bad).rejects.toThrow('Not a file key');
      }
      expect((await b.store.read(key))?.toString()).toBe('kept');
      await b.store.remove(key);
    });

    it('writes under a given key once: a second putAt keeps the first content', async () => {
      const key = newKey();
      expect(await b.store.putAt(key, Buffer.from('first'))).toBe(true);
      expect(await b.store.putAt(key, Readable.from([Buffer.from('second')]))).toBe(false);
      expect((await b.store.read(key))?.toString()).toBe('first');
      await b.store.remove(key);
    });

    it('removes abandoned writes and leaves one still in progress', async () => {
      await b.abandonedWrite(3);
      await b.abandonedWrite(0);
      expect(await b.leftovers()).toBe(2);
      expect(await b.store.removeAbandoned(new Date(Date.now() - 3_600_000))).toBe(1);
      expect(await b.leftovers()).toBe(1);
      expect(await b.store.removeAbandoned(new Date(Date.now() + 60_000))).toBe(1);
      expect(await b.leftovers()).toBe(0);
    });

    it('survives downloads that stop half way, and serves the next one whole', async () => {
      const content = await collect(generated(4 * CHUNK_BYTES, 64 * 1024, 'stop'));
      const { key } = await b.store.put(content);
      // More than the pool's connections: a download that held one would starve the later ones.
      for (let i = 0; i < 12; i++) {
        const file = await b.store.open(key);
        const stream = file!.stream;
        const first = await new Promise<Buffer>((resolve, reject) => {
          stream.once('data', resolve);
          stream.once('error', reject);
        });
        expect(first.length).toBeGreaterThan(0);
        stream.destroy();
      }
      expect((await b.store.read(key))?.equals(content)).toBe(true);
      await b.store.remove(key);
    });

    it('copies a local folder into it under the same keys, once (files:migrate)', async () => {
      const source = await localBackend();
      try {
        const a = await source.store.put(Buffer.from('eerste'));
        const c = await source.store.put(generated(CHUNK_BYTES + 5, 40_000, 'tweede'));
        const first = await copyLocalFiles(source.store, b.store);
        const second = await copyLocalFiles(source.store, b.store);
        expect(first).toEqual({ copied: 2, present: 0 });
        expect(second).toEqual({ copied: 0, present: 2 });
        expect((await b.store.read(a.key))?.toString()).toBe('eerste');
        expect((await b.store.read(c.key))?.equals((await source.store.read(c.key))!)).toBe(true);
        await b.store.remove(a.key);
        await b.store.remove(c.key);
      } finally {
        await source.close();
      }
    });
  });
}
