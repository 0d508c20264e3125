/**
 * Failed mail is visible to operators (issue 15, item 4): the tenant's outgoing mail that was not sent
 * (GET /api/mail-outbox, schemas/mail-outbox.json) with recipient, subject, attempts, last error and
 * times, never the body; only operators holding the permissions, never clients, never another tenant's
 * mail. Every outbox row belongs to a tenant: the export notice too, and migration 0016 gives the old rows
 * without one a tenant or removes them. "Try again": tests/api/mail-failures-retry.test.ts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration0016 from '../../server/db/migrations/0016_mail_outbox_tenants.ts';
import { enqueueMail } from '../../server/mail/enqueue.ts';
import type { BackOffice } from './back-office.ts';
import { targets, type TestApp } from './harness.ts';
import { failedMailWorld, type FailedMailWorld } from './mail-failures-world.ts';
import { recipients, type LoopbackSmtp } from './smtp.ts';
import { bySchema } from '../../server/db/schema-tables.ts';

/** What the list shows of a mail: no body, no context, no source. */
const FIELDS = [
  'id',
  'recipients',
  'subject',
  'status',
  'attempts',
  'last_error',
  'created_at',
  'last_attempt_at',
  'next_attempt_at',
  'failed_at',
].sort();

describe.each(targets)('failed mail for operators on $name', (target) => {
  let w: FailedMailWorld | undefined;
  let t: TestApp;
  let smtp: LoopbackSmtp;
  let b: BackOffice;
  let call: FailedMailWorld['call'];
  let givenUpMessage: FailedMailWorld['givenUpMessage'];

  beforeAll(async () => {
    w = await failedMailWorld(target);
    ({ t, smtp, b, call, givenUpMessage } = w);
  });
  afterAll(() => w?.close());

  it('lists the tenant mail that was given up, with what an operator needs and without its body', async () => {
    const { outboxId } = await givenUpMessage('Lijst van mislukte mail');
    const list = await call('GET', '/api/mail-outbox', b.admin);
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json().data as Record<string, unknown>[];
    const row = rows.find((r) => r.id === outboxId);
    expect(row).toBeDefined();
    expect(Object.keys(row!).sort()).toEqual(FIELDS);
    expect(row).toMatchObject({ recipients: 'client@example.com', status: 'failed', attempts: 2 });
    expect(String(row!.subject)).not.toBe('');
    expect(row!.last_error).toContain('Mailbox unavailable');
    for (const field of ['created_at', 'last_attempt_at', 'failed_at'])
      expect(Date.now() - new Date(String(row![field])).getTime(), field).toBeLessThan(60_000);
    // Newest first, and nothing that was sent.
    const ids = rows.map((r) => Number(r.id));
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(rows.every((r) => r.status !== 'sent')).toBe(true);
    // The body (it may hold a sign-in or quote link) is in neither the list nor the record.
    const shown = await call('GET', `/api/mail-outbox/${outboxId}`, b.admin);
    expect(shown.statusCode).toBe(200);
    expect(Object.keys(shown.json()).sort()).toEqual(FIELDS);
    expect(shown.body).not.toContain('Lijst van mislukte mail');
    // Filtering by status works as on any list.
    const failed = await call(
      'GET',
      '/api/mail-outbox?builder[0][where][0]=status&builder[0][where][1]=failed',
      b.admin,
    );
    expect(failed.json().data.map((r: { id: number }) => r.id)).toContain(outboxId);
  });

  it('hides sent mail and the mail of other tenants', async () => {
    const sentId = await enqueueMail(
      t.db,
      { to: 'sent@example.com', subject: `Verstuurd ${Date.now()}`, text: 'Hallo' },
      { tenantId: b.tenantId },
    );
    expect(await t.app.outbox.sendNow(sentId)).toBe('sent');
    const otherId = await enqueueMail(
      t.db,
      { to: 'elders@example.com', subject: 'Van een andere tenant', text: 'Hallo' },
      { tenantId: b.otherTenantId },
    );
    await t.db
      .updateTable('mail_outbox')
      .set({ status: 'failed', attempts: 2 })
      .where('id', '=', otherId)
      .execute();
    const ids = (await call('GET', '/api/mail-outbox', b.admin)).json().data.map((r: { id: number }) => r.id);
    expect(ids).not.toContain(sentId);
    expect(ids).not.toContain(otherId);
    for (const id of [sentId, otherId]) {
      expect((await call('GET', `/api/mail-outbox/${id}`, b.admin)).statusCode, `show ${id}`).toBe(404);
      expect((await call('POST', `/api/mail-outbox/${id}/retry`, b.admin)).statusCode, `retry ${id}`).toBe(
        404,
      );
    }
    // The other tenant's mail stays given up.
    const other = await t.db
      .selectFrom('mail_outbox')
      .select(['status', 'attempts'])
      .where('id', '=', otherId)
      .executeTakeFirstOrThrow();
    expect(other).toEqual({ status: 'failed', attempts: 2 });
  });

  it('is for operators with the permissions: clients get 403 on the list and on try again', async () => {
    const { outboxId } = await givenUpMessage('Alleen voor operators');
    expect((await call('GET', '/api/mail-outbox', b.client)).statusCode).toBe(403);
    expect((await call('GET', `/api/mail-outbox/${outboxId}`, b.client)).statusCode).toBe(403);
    expect((await call('POST', `/api/mail-outbox/${outboxId}/retry`, b.client)).statusCode).toBe(403);
    // An operator whose role lacks tenant.mail-outbox.retry reads the list but cannot try again.
    expect((await call('GET', '/api/mail-outbox', b.limited)).statusCode).toBe(200);
    expect((await call('POST', `/api/mail-outbox/${outboxId}/retry`, b.limited)).statusCode).toBe(403);
    const row = await t.db
      .selectFrom('mail_outbox')
      .select(['status', 'attempts'])
      .where('id', '=', outboxId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'failed', attempts: 2 });
  });

  it("queues the export notice in the exporting user's tenant", async () => {
    const admin = await t.db
      .selectFrom('users')
      .select(['id', 'tenant_id'])
      .where('email', '=', 'admin@example.com')
      .executeTakeFirstOrThrow();
    const before = smtp.received.length;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/exports',
      headers: b.admin,
      payload: { userId: Number(admin.id), model: 'countries', filter: [] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const mail = await smtp.next(before);
    expect(recipients(mail)).toContain('admin@example.com');
    const row = await t.db
      .selectFrom('mail_outbox')
      .select('tenant_id')
      .where('subject', '=', mail.subject!)
      .where('recipients', '=', 'admin@example.com')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(Number(row.tenant_id)).toBe(Number(admin.tenant_id));
  });

  it('migration 0016 gives a row without a tenant the tenant of its recipient, or removes it', async () => {
    const done = new Error('rolled back: the test leaves the schema as it was');
    await expect(
      t.db.transaction().execute(async (trx) => {
        await migration0016.down(trx);
        const insert = (recipient: string) =>
          // The table as migration 0015 left it (tenant_id nullable), not as tables.ts describes it now.
          bySchema(trx)
            .insertInto('mail_outbox')
            .values({ tenant_id: null, recipients: recipient, subject: 'Export klaar', status: 'failed' })
            .returning('id')
            .$castTo<{ id: number }>()
            .executeTakeFirstOrThrow();
        const known = await insert('Admin@Example.com');
        const unknown = await insert('nobody@example.com');
        await migration0016.up(trx);
        const rows = await trx
          .selectFrom('mail_outbox')
          .select(['id', 'tenant_id'])
          .where('id', 'in', [known.id, unknown.id])
          .execute();
        expect(rows).toEqual([{ id: known.id, tenant_id: b.tenantId }]);
        const { rows: nullable } = await sql<{ is_nullable: string }>`
          select is_nullable from information_schema.columns
          where table_name = 'mail_outbox' and column_name = 'tenant_id'
            and table_schema = current_schema()`.execute(trx);
        expect(nullable).toEqual([{ is_nullable: 'NO' }]);
        throw done;
      }),
    ).rejects.toBe(done);
  });
});
