/**
 * Issue 12, sign-in and accounts: mailed links only point at an origin the operator configured or at
 * this machine (finding 5).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets, type TestApp } from './harness.ts';
import type { LoopbackSmtp } from './smtp.ts';
import { openHardeningWorld } from './auth-hardening-world.ts';

const UNKNOWN_TENANT = { message: 'Unknown tenant.' };

describe.each(targets)('sign-in and account hardening on $name', (target) => {
  let t: TestApp;
  let smtp: LoopbackSmtp;

  beforeAll(async () => {
    ({ t, smtp } = await openHardeningWorld(target));
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  describe('links in mail (finding 5)', () => {
    const forgot = (host: string, email = 'client@example.com') =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/password/forgot',
        headers: { host },
        payload: { email, locale: 'en' },
        remoteAddress: '10.50.0.1',
      });

    it('a password reset asked for through a foreign Host answers 404 and mails nothing', async () => {
      const resetsBefore = await t.db.selectFrom('password_resets').select('id').execute();
      const before = smtp.received.length;
      for (const host of ['attacker.com', 'acme.attacker.com', 'www.attacker.com:443', '203.0.113.9']) {
        const res = await forgot(host);
        expect(res.statusCode, host).toBe(404);
        expect(res.json()).toEqual(UNKNOWN_TENANT);
      }
      // A request through this machine's own name right after: its mail is the only one that arrives.
      const ok = await forgot('localhost:3000');
      expect(ok.statusCode).toBe(200);
      const mail = await smtp.next(before);
      expect(mail.text).toMatch(/http:\/\/localhost:3000\/app\/password\/reset\/[A-Za-z0-9_-]{43}/);
      expect(smtp.received.slice(before).map((m) => m.text ?? '')).not.toEqual(
        expect.arrayContaining([expect.stringContaining('attacker')]),
      );
      const resetsAfter = await t.db.selectFrom('password_resets').select('id').execute();
      expect(resetsAfter.length).toBe(resetsBefore.length + 1);
    });

    it('a tenant on a subdomain of localhost gets its link on that host', async () => {
      const before = smtp.received.length;
      const res = await forgot('acme.localhost:3000', 'other@example.com');
      expect(res.statusCode).toBe(200);
      const mail = await smtp.next(before);
      expect(mail.text).toContain('http://acme.localhost:3000/app/password/reset/');
    });

    it('a quote sent through a foreign Host is not sent: 404, status and tokens unchanged', async () => {
      const quote = await t.db
        .selectFrom('quotes')
        .select(['id', 'status_id'])
        .where('status_id', '=', 1)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const headers = { ...(await t.as('admin@example.com')), host: 'attacker.com' };
      const res = await t.app.inject({ method: 'POST', url: `/api/quotes/${quote.id}/send`, headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(UNKNOWN_TENANT);
      const after = await t.db
        .selectFrom('quotes')
        .select('status_id')
        .where('id', '=', quote.id)
        .executeTakeFirstOrThrow();
      expect(Number(after.status_id)).toBe(1);
      const tokens = await t.db
        .selectFrom('record_tokens')
        .select('id')
        .where('resource', '=', 'quotes')
        .where('record_id', '=', quote.id)
        .execute();
      expect(tokens).toHaveLength(0);
    });

    it('an export asked for through a foreign Host is not queued', async () => {
      const headers = { ...(await t.as('admin@example.com')), host: 'attacker.com' };
      const admin = await t.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'admin@example.com')
        .executeTakeFirstOrThrow();
      const jobsBefore = await t.db.selectFrom('export_jobs').select('id').execute();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/exports',
        headers,
        payload: { userId: Number(admin.id), model: 'tickets', filter: [] },
      });
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual(UNKNOWN_TENANT);
      const jobsAfter = await t.db.selectFrom('export_jobs').select('id').execute();
      expect(jobsAfter.length).toBe(jobsBefore.length);
    });
  });
});
