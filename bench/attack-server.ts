/**
 * The server the attack benchmark (bench/attacks.ts) measures: a real `server/server.ts` process, as
 * `npm start` runs it, on a benchmark database of its own (bench/dataset.ts's data set, in a PGlite
 * folder or a PostgreSQL database that `npm run bench` does not use, so neither run rebuilds the other's).
 * Each attack gets a fresh process: what one attack leaves behind (a stuck mail, replays still running)
 * does not reach the next one's baseline.
 */
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type DatabaseConnection } from '../server/db/database.ts';
import { ensurePostgresDatabase, prepareDataset, type Dataset } from './dataset.ts';
import { start, stop, waitForLine } from './processes.ts';
import { freePort } from '../tests/free-port.ts';
import type { ChildProcess } from 'node:child_process';

export type Engine = 'pglite' | 'postgres';

export interface Target {
  engine: Engine;
  tickets: number;
  /** PostgreSQL: the database of this benchmark; PGlite: the DATA_DIR whose `pglite` folder holds it. */
  databaseUrl?: string;
  dataDir?: string;
}

/** Live events a reconnecting stream can replay: what a busy day of ticket changes leaves. */
export const SEEDED_EVENTS = 2_000;
/** The name of the mailbox the mail attack adds; switched off again after it. */
export const ATTACK_MAILBOX = 'Bench attack mailbox';

/** The benchmark's own database next to the one a URL names: `<name>_attacks`. */
export function attackDatabaseUrl(url: string): string {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1)) || 'postgres';
  target.pathname = `/${name}_attacks`;
  return target.toString();
}

export function targetFor(engine: Engine, tickets: number, url?: string): Target {
  if (engine === 'postgres') return { engine, tickets, databaseUrl: attackDatabaseUrl(url!) };
  return { engine, tickets, dataDir: resolve('.bench-data', `attacks-${tickets}`) };
}

async function open(target: Target): Promise<DatabaseConnection> {
  if (target.databaseUrl) {
    await ensurePostgresDatabase(target.databaseUrl);
    return openDatabase({ url: target.databaseUrl, poolSize: 2 });
  }
  return openDatabase({ dataDir: join(target.dataDir!, 'pglite') });
}

/**
 * The data set (made once, then reused), live events to replay (topped up to SEEDED_EVENTS of the last
 * day: older ones are pruned by the server), and no mailbox of an earlier run left switched on.
 */
export async function prepareTarget(target: Target, log: (line: string) => void): Promise<Dataset> {
  const database = await open(target);
  try {
    const data = await prepareDataset(database.db, target.engine, target.tickets, log);
    const { n } = (
      await sql<{ n: number }>`select count(*)::int as n from live_events
        where tenant_id = ${data.tenantId} and created_at > now() - interval '20 hours'`.execute(database.db)
    ).rows[0]!;
    if (n < SEEDED_EVENTS) {
      await sql`insert into live_events (tenant_id, kind, record_id)
        select ${data.tenantId}, 'ticket.changed', id from tickets
        where tenant_id = ${data.tenantId} order by id desc limit ${SEEDED_EVENTS - n}`.execute(database.db);
    }
    await switchOffAttackMailboxes(database);
    return data;
  } finally {
    await database.close();
  }
}

async function switchOffAttackMailboxes(database: DatabaseConnection): Promise<void> {
  await sql`update mailboxes set active = false where name = ${ATTACK_MAILBOX}`.execute(database.db);
}

/** After the mail attack (its server stopped): the mailbox it added fetches no more. */
export async function cleanUpTarget(target: Target): Promise<void> {
  const database = await open(target);
  try {
    await switchOffAttackMailboxes(database);
  } finally {
    await database.close();
  }
}

export interface RunningServer {
  base: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * `server/server.ts` in a process (group) of its own with the production defaults, on the target's
 * database. TRUST_PROXY=loopback: as behind a proxy on this machine, so X-Forwarded-For is the client's
 * address (what rotating addresses need). `env` adds settings (the mail attack's fetch interval).
 */
export async function startServer(target: Target, env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    TRUST_PROXY: '127.0.0.1',
    ...env,
  };
  delete childEnv.DATABASE_URL;
  delete childEnv.TEST_DATABASE_URL;
  if (target.databaseUrl) childEnv.DATABASE_URL = target.databaseUrl;
  else childEnv.DATA_DIR = target.dataDir;
  const child = start(process.execPath, ['--import', 'tsx', 'server/server.ts'], childEnv);
  try {
    await waitForLine(child, /Service desk running/, 180_000);
  } catch (error) {
    await stop(child, 'SIGKILL');
    throw error;
  }
  return {
    base: `http://127.0.0.1:${port}`,
    child,
    // A server stuck in a mail takes no SIGTERM: stop() sends SIGKILL after 10 s.
    stop: () => stop(child),
  };
}
