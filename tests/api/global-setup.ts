/**
 * Once per run of the API tests: one migrated, demo-seeded PGlite database (tests/seed-folder.ts) and,
 * when TEST_DATABASE_URL is set, one PostgreSQL template database, each with the files the seed
 * wrote. The harness copies them per test app (seed-copy.ts). The teardown drops every database the
 * run made, also those of test files that failed before their own close().
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { prepareDatabase } from '../../server/boot.ts';
import { openDatabase, type DatabaseConnection } from '../../server/db/database.ts';
import { fileStoreFor } from '../../server/files/store.ts';
import { registry } from '../../server/schema/registry.ts';
import { cheapDemoPasswords, existingSeed, makeSeed, SEED_ROOT_ENV } from '../seed-folder.ts';
import { databaseUrl, dropRun, onServer, runPrefix, type Seeds } from './seed-copy.ts';

async function seeded(database: DatabaseConnection, dataDir: string): Promise<void> {
  try {
    await prepareDatabase(database.db, registry(), 'demo', undefined, fileStoreFor({ dataDir }, database.db));
    await cheapDemoPasswords(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** The seed npm test made ahead of time, or one of this run's own. */
async function pgliteSeed(root: string): Promise<Seeds['pglite']> {
  return existingSeed(process.env[SEED_ROOT_ENV]) ?? makeSeed(join(root, 'seed'));
}

async function postgresSeed(root: string, url: string, prefix: string): Promise<Seeds['postgres']> {
  const dataDir = join(root, 'postgres');
  const template = `${prefix}_template`;
  await onServer(url, `create database "${template}"`);
  const database = await openDatabase({ url: databaseUrl(url, template), poolSize: 4 });
  await seeded(database, dataDir);
  // Every connection to the template must be gone before a copy of it can be made.
  await database.close();
  return { prefix, template, files: join(dataDir, 'files') };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = mkdtempSync(join(tmpdir(), 'sd-seed-'));
  const url = process.env.TEST_DATABASE_URL;
  const prefix = url ? runPrefix(url, randomBytes(4).toString('hex')) : undefined;

  const teardown = async () => {
    if (url && prefix) await dropRun(url, prefix);
    rmSync(root, { recursive: true, force: true });
  };

  // Both at once, and both finished before a teardown after a failure removes what they made.
  const [pglite, postgres] = await Promise.allSettled([
    pgliteSeed(root),
    url && prefix ? postgresSeed(root, url, prefix) : undefined,
  ]);
  if (pglite.status === 'rejected' || postgres.status === 'rejected') {
    await teardown();
    throw pglite.status === 'rejected' ? pglite.reason : (postgres as PromiseRejectedResult).reason;
  }
  project.provide('seeds', { pglite: pglite.value, postgres: postgres.value });
  return teardown;
}
