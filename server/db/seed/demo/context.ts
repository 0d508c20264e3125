import type { Db } from '../../database.ts';
import { bySchema } from '../../schema-tables.ts';
import type { Tables } from '../../tables.ts';
import type { FileStore } from '../../../files/store.ts';
import { withTranslations } from '../translations.ts';

/*
 * What every part of the demo seed shares: the transaction, the seeded generator (one sequence for the
 * whole seed, so the parts must run in the order demo.ts calls them), dates relative to `now`, and the
 * insert helpers. The parts only insert and link; their fixed names and rows are in ../data/*.json.
 */

export interface DemoOptions {
  /** The hash of the demo password, stored for every demo account. */
  passwordHash: string;
  /** Dates are relative to this moment; default the current time. */
  now?: Date;
  /** Where the attachments' files are written; without it the rows point at no file. */
  files?: FileStore;
  /** Where the data files of demo rows are (demo/rows.ts); default server/db/seed/data/rows/. */
  rowsDir?: string;
}

export type Row = Record<string, unknown>;

export const DAY = 86_400_000;

export const at = <T>(list: readonly T[], i: number): T => list[i % list.length]!;
export const round2 = (n: number) => Math.round(n * 100) / 100;
export const isoDate = (d: Date) => d.toISOString().slice(0, 10);
export const json = (value: unknown) => JSON.stringify(value);
export const byName = (names: readonly string[], ids: number[]) => new Map(names.map((n, i) => [n, ids[i]!]));

export function fail(message: string): never {
  throw new Error(message);
}

/** mulberry32: a small seeded generator, so the demo is the same on every run. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The table is checked by name; the rows are the seed's data files (../data/*.json) with translations
 * added by table at run time, so they go through the schema view, not the table's own type.
 */
export async function insert(db: Db, table: keyof Tables, rows: Row[]): Promise<number[]> {
  if (rows.length === 0) return [];
  const result = await bySchema(db).insertInto(table).values(rows).returning('id').execute();
  return result.map((r) => Number(r.id));
}

export interface SeedContext {
  db: Db;
  opts: DemoOptions;
  random: () => number;
  /** A whole number from min to max, both included. */
  int(min: number, max: number): number;
  /** The start of today (UTC); `now` the moment itself. */
  today: Date;
  now: Date;
  /** A moment `days` days before today (negative: after), at hour:minute UTC. */
  daysAgo(days: number, hour?: number, minute?: number): Date;
  /** The date `days` days after today (negative: before), as yyyy-mm-dd. */
  dateIn(days: number): string;
  /** The first of the month `offset` months from this one. */
  monthStart(offset: number): Date;
  /** Inserts the rows into one of the tenant's tables (tenant id and translations added); their ids. */
  list(table: keyof Tables, rows: Row[]): Promise<number[]>;
}

export function seedContext(db: Db, opts: DemoOptions, tenantId: number): SeedContext {
  const random = seededRandom(20260101);
  const today = new Date(Math.floor((opts.now ?? new Date()).getTime() / DAY) * DAY);
  const T = { tenant_id: tenantId };
  return {
    db,
    opts,
    random,
    int: (min, max) => min + Math.floor(random() * (max - min + 1)),
    today,
    now: opts.now ?? new Date(),
    daysAgo: (days, hour = 9, minute = 0) =>
      new Date(today.getTime() - days * DAY + (hour * 60 + minute) * 60_000),
    dateIn: (days) => isoDate(new Date(today.getTime() + days * DAY)),
    monthStart: (offset) => new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + offset, 1)),
    list(table, rows) {
      return insert(
        db,
        table,
        rows.map((r) => withTranslations(table, { ...T, ...r })),
      );
    },
  };
}
