/**
 * The audit log (issue 38, item 5): an entry for each audited action with who, when, from where and
 * what changed; no secret in any entry; the list for second line only (first line 403, nobody deletes);
 * the table refuses changes outside the retention sweep; the sweep removes only what is older than the
 * tenant's setting.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepAuditLog, AUDIT_RETENTION_SETTING } from '../../server/audit/retention.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';

const MARK = `Audit-${randomBytes(3).toString('hex')}`;
/** The secrets this test sends: none may be found anywhere in the log. */
const MAILBOX_PASSWORD = `Mailbox-S3cret-${MARK}`;
const NEW_PASSWORD = `Operator-N3w-${MARK}!`;
const WRONG_PASSWORD = `Wrong-Guess-${MARK}`;
const ADDRESS = '203.0.113.7';

interface Entry {
  id: number;
  at: Date;
  user_id: number | null;
  actor: string | null;
  ip: string | null;
  action: string;
  resource: string | null;
  record_id: number | null;
  changes: any;
}

describe.each(targets)('audit log on $name', (target) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let adminId: number;
  let tenantId: number;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers = admin, payload?: object) =>
    t.app.inject({ method, url, headers, remoteAddress: ADDRESS, ...(payload && { payload }) });

  /** The newest entries of `action` (on `resource` and record, when given), newest first. */
  async function entries(action: string, resource?: string, recordId?: number): Promise<Entry[]> {
    return (await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', action)
      .$if(resource !== undefined, (q) => q.where('resource', '=', resource!))
      .$if(recordId !== undefined, (q) => q.where('record_id', '=', recordId!))
      .orderBy('id', 'desc')
      .execute()) as unknown as Entry[];
  }

  /** The one newest entry, checked for who, when and from where. */
  async function newest(action: string, resource?: string, recordId?: number): Promise<Entry> {
    const [entry] = await entries(action, resource, recordId);
    expect(entry, `${action} ${resource ?? ''} ${recordId ?? ''}`).toBeDefined();
    expect(Date.now() - new Date(entry!.at).getTime()).toBeLessThan(60_000);
    return entry!;
  }

  function byAdmin(entry: Entry) {
    expect(entry.user_id).toBe(adminId);
    expect(entry.actor).toBe('admin@example.com');
    expect(entry.ip).toBe(ADDRESS);
  }

  beforeAll(async () => {
    t = await buildTestApp(target);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: ADDRESS,
      payload: { username: 'admin@example.com', password: 'demo' },
    });
    expect(res.statusCode, res.body).toBe(200);
    admin = { authorization: `Bearer ${res.json().access_token}` };
    adminId = Number(res.json().user.id);
    tenantId = Number(
      (await t.db.selectFrom('users').select('tenant_id').where('id', '=', adminId).executeTakeFirstOrThrow())
        .tenant_id,
    );
  }, 120_000);
  afterAll(() => t?.close());

  it('records a sign-in with who, when and the address', async () => {
    byAdmin(await newest('auth.login'));
  });

  it('records a failed sign-in with the name tried and no password', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: ADDRESS,
      payload: { username: 'operator@example.com', password: WRONG_PASSWORD },
    });
    expect(res.statusCode).toBe(422);
    const failed = await newest('auth.login_failed');
    expect(failed.actor).toBe('operator@example.com');
    expect(failed.ip).toBe(ADDRESS);
    expect(failed.changes).toBeNull();
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: `nobody-${MARK}@example.com`, password: WRONG_PASSWORD },
    });
    expect(unknown.statusCode).toBe(422);
    const tried = await newest('auth.login_failed');
    expect(tried.actor).toBe(`nobody-${MARK}@example.com`.toLowerCase());
    expect(tried.user_id).toBeNull();
  });

  it('records a mailbox created and changed, its password hidden, with before and after', async () => {
    const created = await call('POST', '/api/mailboxes', admin, {
      name: `${MARK} box`,
      host: 'imap.example.com',
      port: 993,
      tls: true,
      username: 'desk',
      password: MAILBOX_PASSWORD,
      active: false,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = Number(created.json().id);
    const store = await newest('record.store', 'mailboxes', id);
    byAdmin(store);
    expect(store.changes.name).toBe(`${MARK} box`);
    expect(store.changes.password).toBe('[hidden]');

    const changed = await call('PUT', `/api/mailboxes/${id}`, admin, {
      name: `${MARK} renamed`,
      password: `${MAILBOX_PASSWORD}-2`,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const update = await newest('record.update', 'mailboxes', id);
    byAdmin(update);
    expect(update.changes.name).toEqual([`${MARK} box`, `${MARK} renamed`]);
    expect(update.changes.password).toEqual(['[hidden]', '[hidden]']);
  });

  it("records a user's new password and role (hidden and before/after), a role and a setting changed", async () => {
    const roles = await t.db
      .selectFrom('users')
      .select(['email', 'role_id'])
      .where('email', 'in', ['admin@example.com', 'operator@example.com'])
      .execute();
    const roleOf = (email: string) => roles.find((r) => r.email === email)!.role_id;
    const created = await call('POST', '/api/operators', admin, {
      first_name: 'Audit',
      last_name: MARK,
      email: `audited-${randomBytes(3).toString('hex')}@example.com`,
      is_operator: 1,
      role_id: roleOf('operator@example.com'),
      password: `${NEW_PASSWORD}-first`,
    });
    expect(created.statusCode, created.body).toBe(201);
    const other = { id: Number(created.json().id), role_id: roleOf('operator@example.com') };
    const store = await newest('record.store', 'operators', other.id);
    byAdmin(store);
    expect(store.changes.password).toBe('[hidden]');
    expect(store.changes.role_id).toBe(other.role_id);
    const adminRole = roleOf('admin@example.com');
    expect(adminRole).not.toBe(other.role_id);
    const res = await call('PUT', `/api/operators/${other.id}`, admin, {
      password: NEW_PASSWORD,
      role_id: adminRole,
    });
    expect(res.statusCode, res.body).toBe(200);
    const update = await newest('record.update', 'operators', Number(other.id));
    byAdmin(update);
    expect(update.changes.password).toEqual(['[hidden]', '[hidden]']);
    expect(update.changes.role_id).toEqual([other.role_id, adminRole]);

    const role = await call('POST', '/api/roles', admin, { name: `${MARK} role`, is_operator: true });
    expect(role.statusCode, role.body).toBe(201);
    const roleId = Number(role.json().id);
    expect((await call('PUT', `/api/roles/${roleId}`, admin, { name: `${MARK} role 2` })).statusCode).toBe(
      200,
    );
    expect((await newest('record.update', 'roles', roleId)).changes).toEqual({
      name: [`${MARK} role`, `${MARK} role 2`],
    });

    const setting = await call('POST', '/api/config', admin, { name: 'audit_test_setting', value: 'a' });
    expect(setting.statusCode, setting.body).toBe(201);
    const settingId = Number(setting.json().id);
    expect((await call('PUT', `/api/config/${settingId}`, admin, { value: 'b' })).statusCode).toBe(200);
    const changed = await newest('record.update', 'config', settingId);
    byAdmin(changed);
    expect(changed.changes).toEqual({ value: ['a', 'b'] });
  });

  it('does not record a plain change of a resource without x-audit', async () => {
    const company = await call('POST', '/api/companies', admin, { name: `${MARK} plain` });
    expect(company.statusCode, company.body).toBe(201);
    expect(await entries('record.store', 'companies', Number(company.json().id))).toEqual([]);
  });

  it('records a delete with the record and a merge with what went into what', async () => {
    const ids: number[] = [];
    for (const name of ['kept', 'merged', 'deleted']) {
      const res = await call('POST', '/api/companies', admin, { name: `${MARK} ${name}` });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(Number(res.json().id));
    }
    const [kept, merged, deleted] = ids as [number, number, number];
    expect((await call('DELETE', `/api/companies/${deleted}`)).statusCode).toBe(200);
    const destroy = await newest('record.destroy', 'companies', deleted);
    byAdmin(destroy);
    expect(destroy.changes.name).toBe(`${MARK} deleted`);

    const merge = await call('POST', '/api/companies/merge', admin, { ids: [kept, merged] });
    expect(merge.statusCode, merge.body).toBe(200);
    const entry = await newest('record.merge', 'companies', kept);
    byAdmin(entry);
    expect(entry.changes).toEqual({ kept, merged: [merged] });
  });

  it('records an export and an invoice download', async () => {
    const exported = await call('POST', '/api/exports', admin, {
      userId: adminId,
      model: 'tickets',
      filter: [{ orderBy: ['id', 'asc'] }],
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const entry = await newest('export.create', 'tickets');
    byAdmin(entry);
    expect(entry.changes.filter).toEqual([{ orderBy: ['id', 'asc'] }]);

    const invoice = await t.db
      .selectFrom('invoices')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const download = await call('POST', `/api/invoices/${invoice.id}/download`);
    expect(download.statusCode, download.body.slice(0, 200)).toBe(200);
    byAdmin(await newest('invoice.download', 'invoices', Number(invoice.id)));
  });

  it('records a sign-out', async () => {
    const session = await t.login('operator@example.com');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      remoteAddress: ADDRESS,
      headers: { authorization: `Bearer ${session.token}`, cookie: session.cookie },
    });
    expect(res.statusCode).toBe(200);
    const entry = await newest('auth.logout');
    expect(entry.actor).toBe('operator@example.com');
    expect(entry.ip).toBe(ADDRESS);
  });

  it('holds no secret anywhere in the log', async () => {
    const { rows } = await sql<{
      log: string;
    }>`select coalesce(json_agg(a)::text, '') as log from audit_log a`.execute(t.db);
    const log = rows[0]!.log;
    expect(log).toContain(MARK);
    for (const secret of [MAILBOX_PASSWORD, NEW_PASSWORD, `${NEW_PASSWORD}-first`, WRONG_PASSWORD, '$argon2'])
      expect(log).not.toContain(secret);
  });

  it('lists and filters for second line; first line gets 403; nobody changes or deletes an entry', async () => {
    const url =
      '/api/audit-log?builder[0][where][0]=action&builder[0][where][1]==&builder[0][where][2]=auth.login_failed';
    const list = await call('GET', url);
    expect(list.statusCode, list.body).toBe(200);
    const rows = list.json().data as Entry[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.action === 'auth.login_failed')).toBe(true);
    expect(rows.map((r) => r.actor)).toContain(`nobody-${MARK}@example.com`.toLowerCase());
    const id = rows[0]!.id;
    expect((await call('GET', `/api/audit-log/${id}`)).json().action).toBe('auth.login_failed');
    // The existing list export takes it too: the log is exportable.
    const exported = await call('POST', '/api/exports', admin, {
      userId: adminId,
      model: 'audit-log',
      filter: [],
    });
    expect(exported.statusCode, exported.body).toBe(200);

    const first = await t.login('operator@example.com');
    const firstLine = { authorization: `Bearer ${first.token}` };
    expect(first.body.user.permissions_names).not.toContain('tenant.audit-log.index');
    expect((await call('GET', '/api/audit-log', firstLine)).statusCode).toBe(403);
    expect((await call('GET', `/api/audit-log/${id}`, firstLine)).statusCode).toBe(403);
    for (const headers of [firstLine, admin]) {
      expect((await call('DELETE', `/api/audit-log/${id}`, headers)).statusCode).toBe(404);
      expect((await call('PUT', `/api/audit-log/${id}`, headers, { action: 'x' })).statusCode).toBe(404);
      expect((await call('POST', '/api/audit-log', headers, { action: 'x' })).statusCode).toBe(404);
    }
    expect((await entries('auth.login_failed')).map((e) => Number(e.id))).toContain(Number(id));
  });

  it('refuses an update, a delete and a truncate outside the retention sweep', async () => {
    const [entry] = await entries('auth.login');
    await expect(
      sql`update audit_log set actor = 'someone' where id = ${entry!.id}`.execute(t.db),
    ).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log where id = ${entry!.id}`.execute(t.db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`truncate audit_log`.execute(t.db)).rejects.toThrow(/append-only/);
    const after = await t.db
      .selectFrom('audit_log')
      .select('actor')
      .where('id', '=', entry!.id)
      .executeTakeFirst();
    expect(after?.actor).toBe(entry!.actor);
    expect(after?.actor).toMatch(/@example\.com$/);
  });

  it("sweeps entries older than the tenant's setting (default 365 days) and only those", async () => {
    const ages = [400, 300, 40, 20];
    for (const days of ages)
      await sql`insert into audit_log (tenant_id, at, action, resource)
        values (${tenantId}, now() - make_interval(days => ${days}), 'test.sweep', ${`${MARK}-${days}`})`.execute(
        t.db,
      );
    const left = async () =>
      (await t.db.selectFrom('audit_log').select('resource').where('action', '=', 'test.sweep').execute())
        .map((r) => r.resource)
        .sort();
    const recent = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '!=', 'test.sweep')
      .execute();

    await sweepAuditLog(t.db);
    expect(await left()).toEqual([`${MARK}-20`, `${MARK}-300`, `${MARK}-40`]);

    const setting = await call('POST', '/api/config', admin, { name: AUDIT_RETENTION_SETTING, value: '30' });
    expect(setting.statusCode, setting.body).toBe(201);
    await sweepAuditLog(t.db);
    // A second instance's sweep at the same time finds nothing more to do.
    await sweepAuditLog(t.db);
    expect(await left()).toEqual([`${MARK}-20`]);
    const still = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '!=', 'test.sweep')
      .execute();
    expect(still.length).toBeGreaterThanOrEqual(recent.length);
  });
});
