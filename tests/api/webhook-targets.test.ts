/**
 * Webhook targets under the default setting (issue 38, item 4): a URL in a private, loopback, link-local,
 * multicast or unspecified range (IPv4, IPv6, IPv4-mapped IPv6) or named localhost, plain http, and a
 * URL with credentials are refused on save with a 422 saying why; and a webhook whose target is such an
 * address at delivery time (saved when it was allowed, or a name that now resolves there) is refused
 * by the deliverer, which never connects. A file of its own: the setting is the process's (hooks.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptPassword } from '../../server/mail/inbound/secret.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { startReceiver, type Receiver } from './webhook-receiver.ts';

describe.each(targets)('webhook targets on $name, private targets not allowed', (target) => {
  let t: TestApp;
  let receiver: Receiver;
  let admin: Record<string, string>;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await buildTestApp(target);
    admin = await t.as('admin@example.com');
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  const save = (url: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: admin,
      payload: { name: `target ${url}`, url, events: ['ticket.created'] },
    });

  it.each([
    ['https://127.0.0.1/hook', '127.0.0.1'],
    ['https://127.1.2.3:8443/hook', '127.1.2.3'],
    ['https://10.1.2.3/hook', '10.1.2.3'],
    ['https://172.16.0.1/hook', '172.16.0.1'],
    ['https://192.168.1.10/hook', '192.168.1.10'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['https://100.64.0.1/hook', '100.64.0.1'],
    ['https://0.0.0.0/hook', '0.0.0.0'],
    ['https://224.0.0.1/hook', '224.0.0.1'],
    ['https://[::1]/hook', '::1'],
    ['https://[::]/hook', '::'],
    ['https://[fe80::1]/hook', 'fe80::1'],
    ['https://[fd00::1]/hook', 'fd00::1'],
    ['https://[ff02::1]/hook', 'ff02::1'],
    ['https://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1'],
    ['https://[::ffff:10.0.0.1]/hook', '::ffff:a00:1'],
    ['https://2130706433/hook', '127.0.0.1'],
    ['https://localhost/hook', 'localhost'],
    ['https://api.localhost/hook', 'api.localhost'],
  ])('refuses %s on save, naming the address', async (url, host) => {
    const res = await save(url);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors.url).toEqual([
      `The URL points to ${host}, a private, loopback or otherwise non-public address; this installation does not allow such targets.`,
    ]);
  });

  it('refuses plain http and a URL with credentials, and the same on an update', async () => {
    const http = await save('http://example.com/hook');
    expect(http.statusCode).toBe(422);
    expect(http.json().errors.url).toEqual(['The URL must start with https://.']);
    const credentials = await save('https://user:pass@example.com/hook');
    expect(credentials.statusCode).toBe(422);
    expect(credentials.json().errors.url).toEqual(['The URL may not contain a user name or password.']);
    expect(credentials.body).not.toContain('pass@');

    const ok = await save('https://hooks.example.com/desk');
    expect(ok.statusCode, ok.body).toBe(201);
    const moved = await t.app.inject({
      method: 'PUT',
      url: `/api/webhooks/${ok.json().id}`,
      headers: admin,
      payload: { url: 'https://[::ffff:192.168.0.1]/hook' },
    });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().errors.url[0]).toContain('non-public address');
  });

  it('refuses a private target at delivery time too, without connecting', async () => {
    // A webhook whose target is loopback now (saved while allowed, or a name re-pointed): written directly.
    const tenant = await t.db.selectFrom('tenants').select('id').orderBy('id').executeTakeFirstOrThrow();
    const tenantId = Number(tenant.id);
    const row = await t.db
      .insertInto('webhooks')
      .values({
        tenant_id: tenantId,
        name: 'rebound',
        url: `${receiver.url.replace('http:', 'https:')}/rebound`,
        events: JSON.stringify(['ticket.created']),
        secret_encrypted: await encryptPassword(t.db, tenantId, 'whsec_rebound'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const res = await t.app.inject({ method: 'POST', url: `/api/webhooks/${row.id}/test`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'failed', status_code: null });
    expect(res.json().error).toContain('127.0.0.1, a private, loopback or otherwise non-public address');
    expect(receiver.received).toEqual([]);
  });
});
