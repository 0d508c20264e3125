/**
 * The contract every file store keeps (store.ts says where files live). Its own module so that the
 * implementations (postgres-store.ts, s3-store.ts) and the factory that picks one (store.ts) all
 * import it without importing each other: no import cycle (tests/unit/import-cycles.test.ts).
 */
import type { Readable } from 'node:stream';
import type { Db } from '../db/database.ts';

/**
 * `within`: a transaction (or the one connection) the caller is in. A store in the database writes
 * through it, so the file commits or rolls back with the caller's rows, and a caller holding the only
 * connection (PGlite; the seed's connection) does not wait on itself. Other stores ignore it.
 */
export interface FileStore {
  /** Writes the content under a new random key. On any error nothing is left behind. */
  put(content: Readable | Buffer, within?: Db): Promise<{ key: string; size: number }>;
  /**
   * Writes the content under a key it had in another store (files:migrate). False, writing nothing,
   * when the key is taken already: copying twice stores once. On any error nothing is left behind.
   */
  putAt(key: string, content: Readable | Buffer): Promise<boolean>;
  /** The content as a stream, or undefined when the key holds no file. */
  open(key: string): Promise<{ stream: Readable; size: number } | undefined>;
  /** The whole content (mail attachments), or undefined when the key holds no file. */
  read(key: string): Promise<Buffer | undefined>;
  /** Removes the file; a key that holds none is not an error. */
  remove(key: string, within?: Db): Promise<void>;
  /** Every key that holds a complete file. */
  keys(): AsyncIterable<string>;
  /**
   * Removes what writes left unfinished that were last written to before `before` (the process died
   * mid-upload); a write in progress keeps touching its file. How many went.
   */
  removeAbandoned(before: Date): Promise<number>;
}
