/**
 * Files of deleted attachments leave the store (migration 0009 and server/files/sweep.ts): deleting a
 * message queues its files in the same transaction and the sweep removes them; a rolled-back delete
 * queues nothing; an inline image never used by a message goes after a day; a file another row still
 * uses stays.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFileStore, type FileStore } from '../../server/files/store.ts';
import { sweepFiles, UNUSED_UPLOAD_HOURS } from '../../server/files/sweep.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { multipart } from './multipart.ts';

describe.each(targets)('the file sweep on $name', (target) => {
  let t: TestApp;
  let store: FileStore;
  let admin: Record<string, string>;
  let ticketId: number;

  const queued = async () => (await sql<{ path: string }>`select path from file_removals`.execute(t.db)).rows;
  const exists = async (path: string) => (await store.read(path)) !== undefined;

  /** An internal note with one file, as the back office sends it. */
  async function noteWithFile(): Promise<{ id: number; path: string }> {
    const form = multipart(
      [
        ['message', '<p>Met bijlage</p>'],
        ['morphable_type', 'ticket'],
        ['morphable_id', String(ticketId)],
        ['visible_to_client', '0'],
      ],
      [{ field: 'file[0]', name: 'log.txt', content: `regel ${randomBytes(4).toString('hex')}` }],
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/messages',
      payload: form.payload,
      headers: { ...admin, ...form.headers },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = Number(res.json().id);
    const row = await sql<{ path: string }>`select path from attachments where message_id = ${id}`.execute(
      t.db,
    );
    return { id, path: row.rows[0]!.path };
  }

  beforeAll(async () => {
    // The app's own sweep stays off: each test sweeps when it says so.
    t = await buildTestApp(target, { fileSweepMs: 0 });
    store = localFileStore(join(t.config.dataDir, 'files'));
    admin = await t.as('admin@example.com');
    const ticket = await sql<{
      id: number;
    }>`select id from tickets where is_template = false order by id limit 1`.execute(t.db);
    ticketId = Number(ticket.rows[0]!.id);
    await sql`delete from file_removals`.execute(t.db);
  }, 120_000);
  afterAll(() => t?.close());

  it("removes a deleted message's file from the store", async () => {
    const { id, path } = await noteWithFile();
    expect(await exists(path)).toBe(true);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/messages/${id}`, headers: admin });
    expect(res.statusCode).toBe(200);
    expect((await queued()).map((r) => r.path)).toEqual([path]);
    // Still there until the sweep runs: the delete only queued it.
    expect(await exists(path)).toBe(true);
    expect((await sweepFiles(t.db, store)).removed).toBe(1);
    expect(await exists(path)).toBe(false);
    expect(await queued()).toEqual([]);
  });

  it('queues nothing for a delete that is rolled back', async () => {
    const { id, path } = await noteWithFile();
    await expect(
      t.db.transaction().execute(async (trx) => {
        await sql`delete from messages where id = ${id}`.execute(trx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await queued()).toEqual([]);
    await sweepFiles(t.db, store);
    expect(await exists(path)).toBe(true);
  });

  it('removes an inline image no message used after a day, and keeps a newer one', async () => {
    const upload = async () => {
      const form = multipart(
        [['is_embedded', '1']],
        [{ field: 'file', name: 'plaatje.png', content: PNG, type: 'image/png' }],
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/attachments',
        payload: form.payload,
        headers: { ...admin, ...form.headers },
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = Number(res.json().id);
      return {
        id,
        path: (await sql<{ path: string }>`select path from attachments where id = ${id}`.execute(t.db))
          .rows[0]!.path,
      };
    };
    const old = await upload();
    const fresh = await upload();
    await sql`update attachments set created_at = now() - make_interval(hours => ${UNUSED_UPLOAD_HOURS + 1})
      where id = ${old.id}`.execute(t.db);
    const result = await sweepFiles(t.db, store);
    expect(result.unusedUploads).toBe(1);
    expect(await exists(old.path)).toBe(false);
    expect(await exists(fresh.path)).toBe(true);
    const rows = await sql<{
      id: number;
    }>`select id from attachments where id in (${old.id}, ${fresh.id})`.execute(t.db);
    expect(rows.rows.map((r) => Number(r.id))).toEqual([fresh.id]);
  });

  it('keeps a file that another attachment row still points at', async () => {
    const { id, path } = await noteWithFile();
    await sql`insert into attachments (tenant_id, message_id, name, extension, size, mime_type, path)
      select tenant_id, message_id, 'kopie.txt', extension, size, mime_type, path from attachments where message_id = ${id}`.execute(
      t.db,
    );
    await sql`delete from attachments where message_id = ${id} and name = 'log.txt'`.execute(t.db);
    await sweepFiles(t.db, store);
    expect(await exists(path)).toBe(true);
    expect(await queued()).toEqual([]);
  });
});

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
