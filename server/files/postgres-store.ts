/**
 * Files in PostgreSQL (migration 0013), so every instance on one database serves every file: the
 * content in chunks of CHUNK_BYTES (stored_file_chunks), one row per file (stored_files) with its size
 * and whether it is complete. Nothing holds a whole file in memory or a connection for a whole file:
 *
 * - put writes each chunk as it arrives, one short statement each (a slow upload does not keep a
 *   pooled connection), and marks the file complete at the end. Any error removes its rows; a process
 *   that dies mid-put leaves an incomplete row that `removeAbandoned` (the sweep) deletes later.
 * - open answers a stream that fetches one chunk per read, again one short statement each: a client
 *   that goes away mid-download only leaves the stream to be destroyed, no connection held.
 *
 * Only complete files are ever read. Works on PGlite as on PostgreSQL (FILES_STORE=postgres there is
 * allowed, though the embedded database's own folder is then where the files are).
 */
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { isFileKey, newKey } from './keys.ts';
import type { FileStore } from './file-store.ts';

/** 256 KB: few rows per file (80 for the 20 MB upload limit), small statements, bounded memory. */
export const CHUNK_BYTES = 256 * 1024;

/** pg answers bytea as a Buffer, PGlite as a Uint8Array: the same bytes as a Buffer, without a copy. */
function asBuffer(data: Uint8Array): Buffer {
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * Runs a write; when it fails, the content stream fails with it. An upload pipes into that stream: had
 * the database refused the first statement, nobody would read it and the upload would hang.
 */
async function stopping<T>(content: Readable | Buffer, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!Buffer.isBuffer(content)) content.destroy(error as Error);
    throw error;
  }
}

export function postgresFileStore(db: Db, options: { fallback?: FileStore } = {}): FileStore {
  const { fallback } = options;

  async function writeChunk(db: Db, key: string, seq: number, data: Buffer): Promise<void> {
    // The same statement keeps the file row touched, so the sweep never takes a put in progress.
    await sql`
      with chunk as (insert into stored_file_chunks (key, seq, data) values (${key}, ${seq}, ${data}))
      update stored_files set touched_at = now() where key = ${key}`.execute(db);
  }

  /** Writes the chunks of a file whose row exists; removes the row (and chunks) on any error. */
  async function writeContent(db: Db, key: string, content: Readable | Buffer): Promise<number> {
    let size = 0;
    let seq = 0;
    try {
      const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
      let parts: Buffer[] = [];
      let pending = 0;
      for await (const piece of source as AsyncIterable<Buffer | string>) {
        const bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
        parts.push(bytes);
        pending += bytes.length;
        if (pending < CHUNK_BYTES) continue;
        const joined = parts.length === 1 ? parts[0]! : Buffer.concat(parts, pending);
        let offset = 0;
        for (; pending - offset >= CHUNK_BYTES; offset += CHUNK_BYTES) {
          await writeChunk(db, key, seq++, joined.subarray(offset, offset + CHUNK_BYTES));
        }
        parts = offset < pending ? [joined.subarray(offset)] : [];
        size += offset;
        pending -= offset;
      }
      if (pending > 0) {
        await writeChunk(db, key, seq++, parts.length === 1 ? parts[0]! : Buffer.concat(parts, pending));
        size += pending;
      }
      await sql`update stored_files set size = ${size}, complete = true, touched_at = now()
                where key = ${key}`.execute(db);
      return size;
    } catch (error) {
      // The chunks go with the row (on delete cascade). Should the database be gone too, the row
      // stays incomplete, is never read, and the sweep removes it.
      await sql`delete from stored_files where key = ${key}`.execute(db).catch(() => undefined);
      throw error;
    }
  }

  /** The chunks of a complete file of `size` bytes, one statement per read. */
  function chunkStream(key: string, size: number): Readable {
    let seq = 0;
    let sent = 0;
    return new Readable({
      read() {
        if (sent >= size) {
          this.push(null);
          return;
        }
        sql<{ data: Uint8Array }>`
          select data from stored_file_chunks where key = ${key} and seq = ${seq}`
          .execute(db)
          .then(
            ({ rows }) => {
              if (this.destroyed) return;
              const data = rows[0] ? asBuffer(rows[0].data) : undefined;
              if (!data || data.length === 0 || sent + data.length > size) {
                // Removed while it was read (a deleted message's file swept), or damaged.
                this.destroy(new Error(`The stored file ${key} ended early or changed while it was read.`));
                return;
              }
              seq++;
              sent += data.length;
              this.push(data);
              if (sent >= size) this.push(null);
            },
            (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
          );
      },
    });
  }

  async function completeSize(key: string): Promise<number | undefined> {
    const { rows } = await sql<{ size: number | string }>`
      select size from stored_files where key = ${key} and complete`.execute(db);
    return rows[0] ? Number(rows[0].size) : undefined;
  }

  const store: FileStore = {
    async put(content, within = db) {
      const key = newKey();
      return stopping(content, async () => {
        await sql`insert into stored_files (key) values (${key})`.execute(within);
        return { key, size: await writeContent(within, key, content) };
      });
    },
    async putAt(key, content) {
      if (!isFileKey(key)) throw new Error(`Not a file key: ${key}`);
      return stopping(content, async () => {
        const { rows } = await sql`
          insert into stored_files (key) values (${key}) on conflict do nothing returning key`.execute(db);
        if (rows.length === 0) {
          if (!Buffer.isBuffer(content)) content.destroy();
          return false;
        }
        await writeContent(db, key, content);
        return true;
      });
    },
    async open(key) {
      if (!isFileKey(key)) return undefined;
      const size = await completeSize(key);
      if (size === undefined) return fallback?.open(key);
      return { stream: chunkStream(key, size), size };
    },
    async read(key) {
      const file = await store.open(key);
      if (!file) return undefined;
      const parts: Buffer[] = [];
      for await (const part of file.stream as AsyncIterable<Buffer>) parts.push(part);
      return Buffer.concat(parts);
    },
    async remove(key, within = db) {
      if (!isFileKey(key)) return;
      await sql`delete from stored_files where key = ${key}`.execute(within);
      await fallback?.remove(key);
    },
    async *keys() {
      // Page by key: a long listing holds no connection between pages.
      let after = '';
      for (;;) {
        const { rows } = await sql<{ key: string }>`
          select key from stored_files where complete and key > ${after} order by key limit 1000`.execute(db);
        for (const row of rows) yield row.key;
        if (rows.length < 1000) return;
        after = rows[rows.length - 1]!.key;
      }
    },
    async removeAbandoned(before) {
      const result = await sql`
        delete from stored_files where not complete and touched_at < ${before}`.execute(db);
      return Number(result.numAffectedRows ?? 0);
    },
  };
  return store;
}
