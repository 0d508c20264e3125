/**
 * The first run through the API (issue 32): an installation without a tenant says so, its setup creates
 * the tenant with its reference lists and first operator once (two at once: one wins, the other 409),
 * bad input is refused field by field with nothing written, the outgoing-mail and mailbox tests answer
 * before setup only, and the desk set up works end to end (./first-run-journey.ts).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { journeyAfterSetup, OPERATOR, type Call } from './first-run-journey.ts';
import { freePort } from './processes.ts';

const SETUP = {
  name: 'Bakker ICT',
  language: 'en',
  admin: { first_name: 'Bea', last_name: 'Bakker', email: OPERATOR.email, password: OPERATOR.password },
};

describe.each(targets)('first run on $name', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target, { seed: 'none' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const call: Call = async (method, path, body, headers = {}) => {
    const res = await t.app.inject({ method, url: path, payload: body as object, headers });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };
  const tenants = async () => (await t.db.selectFrom('tenants').selectAll().execute()).length;

  it('without a tenant: the setup is needed, the portal and the API know no tenant yet', async () => {
    expect((await call('GET', '/api/setup')).body).toEqual({
      needed: true,
      tenant: 'acme',
      smtp: false,
      password_min_length: 8,
    });
    expect((await call('GET', '/api/system/status')).status).toBe(404);
    expect((await call('POST', '/api/auth/login', { username: 'a@b.c', password: 'x' })).status).toBe(404);
  });

  it('refuses bad input field by field and writes nothing', async () => {
    const bad = [
      [{ ...SETUP, language: 'fr' }, 'body.language'],
      [{ ...SETUP, admin: { ...SETUP.admin, email: 'not an address' } }, 'body.admin.email'],
      [{ ...SETUP, admin: { ...SETUP.admin, password: 'short' } }, 'admin.password'],
      [{ ...SETUP, admin: { ...SETUP.admin, password: 'football' } }, 'admin.password'],
      [{ ...SETUP, name: '' }, 'body.name'],
      [
        { ...SETUP, mailbox: { host: 'imap example', port: 993, tls: true, username: 'u', password: 'p' } },
        'body.mailbox.host',
      ],
    ] as const;
    for (const [body, field] of bad) {
      const res = await call('POST', '/api/setup', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    expect(await tenants()).toBe(0);
  });

  it('tests the outgoing mail and a mailbox before setup', async () => {
    const mail = await call('POST', '/api/setup/test-mail', { to: OPERATOR.email, language: 'nl' });
    expect(mail.body).toEqual({ ok: true, file: true });
    // SMTP_URL is not set: the mail is a file under DATA_DIR/mail, as all mail then is.
    const folder = join(t.config.dataDir, 'mail');
    expect(existsSync(folder) && readdirSync(folder).length).toBe(1);
    const closed = await freePort();
    const box = await call('POST', '/api/setup/test-mailbox', {
      host: '127.0.0.1',
      port: closed,
      tls: false,
      username: 'support@provider.test',
      password: 'secret',
    });
    expect(box.body.ok).toBe(false);
    expect(box.body.error).toContain('ECONNREFUSED');
  });

  it('two setups at once: one creates the tenant, the other is refused with 409', async () => {
    const [a, b] = await Promise.all([
      call('POST', '/api/setup', SETUP),
      call('POST', '/api/setup', { ...SETUP, name: 'Andere naam' }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 201)!.body).toMatchObject({ tenant: 'acme' });
    expect([a, b].find((r) => r.status === 409)!.body.message).toBe(
      'This desk has been set up already: sign in instead.',
    );
    expect(await tenants()).toBe(1);
    const name = (await t.db.selectFrom('tenants').select('name').executeTakeFirstOrThrow()).name;
    // The operator starts in the language chosen for the desk.
    const locale = await t.db
      .selectFrom('user_configs')
      .select('value')
      .where('name', '=', 'locale')
      .executeTakeFirstOrThrow();
    expect(locale.value).toBe('en');
    await journeyAfterSetup(call, name);
  });

  it('after setup: no second setup, no tests, and the page says it is done', async () => {
    expect((await call('GET', '/api/setup')).body.needed).toBe(false);
    expect((await call('POST', '/api/setup', SETUP)).status).toBe(409);
    expect((await call('POST', '/api/setup/test-mail', { to: OPERATOR.email, language: 'nl' })).status).toBe(
      409,
    );
    const box = { host: '127.0.0.1', port: 1, tls: false, username: 'u', password: 'p' };
    expect((await call('POST', '/api/setup/test-mailbox', box)).status).toBe(409);
    expect(await tenants()).toBe(1);
  });
});
