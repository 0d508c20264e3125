/**
 * Seed once, copy per test app (issue 13, item 1): every test app is a copy of the run's one demo
 * seed, with the seed's ids and files, and isolated from every other copy as if it had been seeded
 * on its own; on PostgreSQL each copy is a database of its own, gone when the app closes, and the
 * run's teardown drops whatever a failed file left behind, and nothing else.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { databaseUrl, dropRun, onServer, runPrefix } from './seed-copy.ts';

const databases = async (url: string) =>
  (await onServer(url, 'select datname from pg_database')).rows.map((r) => r.datname as string);

describe.each(targets)('seed copies on $name', (target) => {
  const dataDirs = [0, 1].map(() => join(tmpdir(), `sd-seed-copy-${randomBytes(4).toString('hex')}`));
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await buildTestApp(target, { config: { dataDir: dataDirs[0] } });
    b = await buildTestApp(target, { config: { dataDir: dataDirs[1] } });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  const firstAttachment = (t: TestApp) =>
    t.db
      .selectFrom('attachments')
      .select(['id', 'path'])
      .where('path', '<>', '')
      .orderBy('id')
      .executeTakeFirstOrThrow();

  it("has the seed's rows and ids, and the seed's files copied into its own data folder", async () => {
    const seeds = inject('seeds');
    const seedFiles = target.url ? seeds.postgres!.files : seeds.pglite.files;
    const inA = await firstAttachment(a);
    // The same random file key in both: copied from one seed, not seeded twice.
    expect(await firstAttachment(b)).toEqual(inA);
    const original = readFileSync(join(seedFiles, inA.path));
    for (const dir of dataDirs)
      expect(readFileSync(join(dir, 'files', inA.path)).equals(original)).toBe(true);
    const tenants = await a.db.selectFrom('tenants').select('name').execute();
    expect(tenants.map((t) => t.name)).toContain('Acme IT');
  });

  it("sees none of another copy's writes, in the database or the file store", async () => {
    const ticket = await a.db
      .selectFrom('tickets')
      .select(['id', 'description'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await a.db
      .updateTable('tickets')
      .set({ description: 'changed in a' })
      .where('id', '=', ticket.id)
      .execute();
    const { path } = await firstAttachment(a);
    rmSync(join(dataDirs[0]!, 'files', path));

    const inB = await b.db
      .selectFrom('tickets')
      .select('description')
      .where('id', '=', ticket.id)
      .executeTakeFirstOrThrow();
    expect(inB.description).toBe(ticket.description);
    expect(existsSync(join(dataDirs[1]!, 'files', path))).toBe(true);
    // Each copy has its own sequences: the next ticket id is the same in both.
    const next = (t: TestApp) =>
      sql<{ id: number }>`select nextval(pg_get_serial_sequence('tickets', 'id'))::int as id`.execute(t.db);
    expect((await next(a)).rows[0]!.id).toBe((await next(b)).rows[0]!.id);
  });

  it('without the demo seed is built as the server builds it: migrated and empty', async () => {
    const empty = await buildTestApp(target, { seed: 'none' });
    try {
      const { count } = await empty.db
        .selectFrom('tenants')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      expect(Number(count)).toBe(0);
      // Migrated: every table is there, and permissions are in sync with the schemas.
      const permissions = await empty.db.selectFrom('permissions').select('id').execute();
      expect(permissions.length).toBeGreaterThan(0);
    } finally {
      await empty.close();
    }
    // Every migration runs here, not a copy of a dump: 15 s alone, over a minute beside a loaded suite.
  }, 180_000);
});

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('seed copies on PostgreSQL are databases of their own', () => {
  it("each app's database is new, named for the run, and dropped when the app closes", async () => {
    const { prefix } = inject('seeds').postgres!;
    const apps = [await buildTestApp(targets[1]!), await buildTestApp(targets[1]!)];
    const names: string[] = [];
    for (const t of apps) {
      const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db);
      names.push(rows[0]!.name);
    }
    try {
      expect(names[0]).not.toBe(names[1]);
      for (const name of names) expect(name.startsWith(`${prefix}_`)).toBe(true);
      expect(await databases(url!)).toEqual(expect.arrayContaining(names));
    } finally {
      for (const t of apps) await t.close();
    }
    const left = await databases(url!);
    for (const name of names) expect(left).not.toContain(name);
  });

  it("the run's teardown drops its databases, also one still in use, and no other run's", async () => {
    const run = randomBytes(4).toString('hex');
    const prefix = runPrefix(url!, run);
    const mine = `${prefix}_left_open`;
    // Same characters up to the run's prefix, but not of it: another run's, never dropped here.
    const other = `${prefix}x`;
    await onServer(url!, `create database "${mine}"`);
    await onServer(url!, `create database "${other}"`);
    const open = new pg.Client({ connectionString: databaseUrl(url!, mine) });
    open.on('error', () => {});
    await open.connect();
    try {
      await dropRun(url!, prefix);
      const left = await databases(url!);
      expect(left).not.toContain(mine);
      expect(left).toContain(other);
    } finally {
      await open.end().catch(() => {});
      await onServer(url!, `drop database if exists "${other}" with (force)`);
      await onServer(url!, `drop database if exists "${mine}" with (force)`);
    }
  });
});
