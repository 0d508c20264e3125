/**
 * The keys the application signs with, kept in `signing_keys` so every instance on one database signs
 * and verifies alike: `attachment-urls` (download links, server/files/signed-urls.ts) and, when
 * DATABASE_URL is set and JWT_SECRET is not, `jwt` (access tokens).
 *
 * Each name has generations: new signatures use the newest, and a signature names its generation (a
 * JWT's `kid`, a link's third part), so after a rotation the older ones still verify until they expire.
 * Rotating is adding the next generation; retiring is deleting an old one once nothing it signed can
 * still be valid (docs/operations.md, "Running several instances").
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, DbTransaction } from './database.ts';

export interface SigningKey {
  generation: number;
  key: string;
}

export interface KeyRing {
  /** The key new signatures are made with. */
  current(): Promise<SigningKey>;
  /** The key of one generation; undefined when there is none (never made, or retired). */
  find(generation: number): Promise<string | undefined>;
}

/** One key that never changes (JWT_SECRET, or the one kept in DATA_DIR): generation 0. */
export function staticKeyRing(secret: string): KeyRing {
  const key = { generation: 0, key: secret };
  return {
    current: async () => key,
    find: async (generation) => (generation === 0 ? secret : undefined),
  };
}

/** A new key of this name, generation 1, unless one exists: whichever instance starts first makes it. */
export async function ensureKey(db: Db, name: string): Promise<void> {
  const key = randomBytes(48).toString('base64url');
  await sql`insert into signing_keys (name, generation, key) values (${name}, 1, ${key})
    on conflict do nothing`.execute(db);
}

/** Adds the next generation of a key (what the rotation SQL of docs/operations.md does); returns its number. */
export async function rotateKey(db: Db, name: string): Promise<number> {
  const key = randomBytes(48).toString('base64url');
  const { rows } = await sql<{ generation: number }>`
    insert into signing_keys (name, generation, key)
    select ${name}, coalesce(max(generation), 0) + 1, ${key} from signing_keys where name = ${name}
    returning generation`.execute(db);
  return Number(rows[0]!.generation);
}

async function loadKeys(db: Db, name: string): Promise<SigningKey[]> {
  const { rows } = await sql<SigningKey>`
    select generation, key from signing_keys where name = ${name} order by generation`.execute(db);
  return rows.map((r) => ({ generation: Number(r.generation), key: r.key }));
}

/** How long the newest generation is trusted before asking again: a rotation reaches every instance within it. */
const REFRESH_MS = 60_000;
/** An unknown generation asks the database at most this often: forged `kid`s cost no more than that. */
const MISS_RELOAD_MS = 1_000;

/**
 * The keys of one name, read from the database and held in memory. A signature of a generation not
 * known here (another instance rotated) reloads them once; a database that does not answer leaves the
 * keys already read in use.
 */
export class DatabaseKeyRing implements KeyRing {
  private keys: SigningKey[] = [];
  private loadedAt = -Infinity;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly name: string,
    private readonly refreshMs = REFRESH_MS,
  ) {}

  private reload(): Promise<void> {
    this.loading ??= loadKeys(this.db, this.name)
      .then((keys) => {
        this.keys = keys;
        this.loadedAt = Date.now();
      })
      .catch((error: unknown) => {
        if (this.keys.length === 0) throw error;
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }

  async current(): Promise<SigningKey> {
    if (Date.now() - this.loadedAt > this.refreshMs) await this.reload();
    const newest = this.keys.at(-1);
    if (!newest) throw new Error(`signing_keys has no ${this.name} key: run the migrations`);
    return newest;
  }

  async find(generation: number): Promise<string | undefined> {
    const known = this.keys.find((k) => k.generation === generation);
    if (known) return known.key;
    if (Date.now() - this.loadedAt < MISS_RELOAD_MS) return undefined;
    await this.reload();
    return this.keys.find((k) => k.generation === generation)?.key;
  }
}

/** The keys of one name as a transaction sees them (a transaction is short-lived: nothing is kept). */
export function transactionKeyRing(trx: DbTransaction, name: string): KeyRing {
  return {
    async current() {
      const newest = (await loadKeys(trx, name)).at(-1);
      if (!newest) throw new Error(`signing_keys has no ${name} key: run the migrations`);
      return newest;
    },
    async find(generation) {
      return (await loadKeys(trx, name)).find((k) => k.generation === generation)?.key;
    },
  };
}
