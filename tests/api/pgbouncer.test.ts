/**
 * The service behind pgbouncer in transaction mode (issue 15, docs/operations.md "Running several instances"): the
 * real server, its pool pointed at Debian's pgbouncer, which hands each transaction whichever of its two
 * server connections is free. Any session state (a `SET`, a session advisory lock, a named prepared
 * statement, `LISTEN` on the pool) would break here or leak into other clients; the flows below cross
 * every part that talks to the database: start-up (migrations and the permission sync under the start-up
 * lock), sign-in limits, lists, writes, files in PostgreSQL, and a logout heard on the direct LISTEN
 * connection. Skipped without TEST_DATABASE_URL or a pgbouncer binary (.ci/run installs Debian's).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { multipart } from './multipart.ts';
import { freePort, startServer, waitFor, type ServerProcess } from './processes.ts';
import { databaseUrl, dropDatabase, onServer } from './seed-copy.ts';

const adminUrl = process.env.TEST_DATABASE_URL;
const binary = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((path) => existsSync(path));
/** pgbouncer refuses to run as root; the cluster's own user runs it. */
const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
/** pgbouncer's server connections to the database: far fewer than the service's pool of 10. */
const SERVER_CONNECTIONS = 2;

function pgbouncerConfig(database: string, listen: number, folder: string): string {
  const target = new URL(adminUrl!);
  return [
    '[databases]',
    `${database} = host=${target.hostname} port=${target.port || 5432} dbname=${database}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${listen}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${join(folder, 'users.txt')}`,
    'pool_mode = transaction',
    `default_pool_size = ${SERVER_CONNECTIONS}`,
    'max_client_conn = 100',
    'admin_users = postgres',
    // The pool sends its statement timeout as a startup parameter, which pgbouncer refuses unless told
    // to ignore it (docs/operations.md): the timeout then belongs on the database role.
    'ignore_startup_parameters = statement_timeout,extra_float_digits',
    '',
  ].join('\n');
}

describe.skipIf(!adminUrl || !binary)('the service behind pgbouncer in transaction mode', () => {
  const seeds = inject('seeds');
  const name = `${seeds.postgres?.prefix ?? 'sd'}_pgbouncer_${randomBytes(3).toString('hex')}`;
  let folder = '';
  let bouncer: ChildProcess | undefined;
  let bouncerOutput = '';
  let server: ServerProcess | undefined;
  let base = '';
  let bouncerUrl = '';

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'sd-pgbouncer-'));
    chmodSync(folder, 0o755);
    // A copy of the run's seeded template: start-up migrates nothing and seeds nothing, but still takes
    // its lock and syncs permissions through pgbouncer.
    await onServer(adminUrl!, `create database "${name}" template "${seeds.postgres!.template}"`);
    const [listen, port] = await Promise.all([freePort(), freePort()]);
    writeFileSync(join(folder, 'users.txt'), '"postgres" ""\n', { mode: 0o644 });
    const configFile = join(folder, 'pgbouncer.ini');
    writeFileSync(configFile, pgbouncerConfig(name, listen!, folder), { mode: 0o644 });
    const [command, ...args] = [...asPostgres, binary!, configFile];
    // In a process group of its own: runuser and pgbouncer end together (afterAll).
    bouncer = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    bouncer.stdout!.on('data', (d) => (bouncerOutput += d));
    bouncer.stderr!.on('data', (d) => (bouncerOutput += d));
    const viaBouncer = new URL(databaseUrl(adminUrl!, name));
    viaBouncer.hostname = '127.0.0.1';
    viaBouncer.port = String(listen);
    bouncerUrl = viaBouncer.toString();
    await waitFor(`pgbouncer on ${listen}`, async () => {
      if (bouncer!.exitCode !== null) throw new Error(`pgbouncer exited: ${bouncerOutput}`);
      const client = new pg.Client({ connectionString: bouncerUrl });
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    });
    server = startServer({
      PORT: String(port),
      DATA_DIR: join(folder, 'data'),
      DATABASE_URL: bouncerUrl,
      // LISTEN needs a session of its own: straight to PostgreSQL.
      DATABASE_LISTEN_URL: databaseUrl(adminUrl!, name),
      SEED: 'demo',
    });
    await server.ready;
    base = server.base;
  }, 120_000);

  afterAll(async () => {
    // SIGTERM, as an orchestrator stops an instance: it must end by itself (shutdown-connections.test.ts).
    if (server && !server.hasExited()) expect(await server.stop(), server.output()).toBe(0);
    if (bouncer && bouncer.exitCode === null) {
      const gone = new Promise((resolve) => bouncer!.once('exit', resolve));
      process.kill(-bouncer.pid!, 'SIGKILL');
      await gone;
    }
    await dropDatabase(adminUrl!, name);
    if (folder) rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  async function signIn(username: string, password = 'demo') {
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const body = (await res.json()) as { access_token?: string };
    return {
      status: res.status,
      token: body.access_token ?? '',
      cookie: res.headers.get('set-cookie') ?? '',
    };
  }

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('signs in, lists, writes and reads files with the pool multiplexed over two server connections', async () => {
    const { status, token } = await signIn('admin@example.com');
    expect(status).toBe(200);

    // Twenty lists at once through the service's pool of ten, on pgbouncer's two server connections.
    const lists = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(
          `${base}/api/tickets?builder[0][orderBy][0]=id&builder[0][orderBy][1]=desc&page=${(i % 3) + 1}`,
          {
            headers: bearer(token),
          },
        ).then(async (res) => ({
          status: res.status,
          total: ((await res.json()) as { total: number }).total,
        })),
      ),
    );
    expect(lists.map((l) => l.status)).toEqual(Array(20).fill(200));
    expect(new Set(lists.map((l) => l.total)).size).toBe(1);
    // pgbouncer held to its two: the service's pool never reached PostgreSQL directly.
    const { rows } = await onServer(
      adminUrl!,
      `select count(*)::int as n from pg_stat_activity where datname = '${name}' and backend_type = 'client backend'`,
    );
    // Its two and the service's one direct LISTEN connection (the sign-in changes and the live events
    // share it: server/db/listener.ts); this query's own is on another database.
    expect(rows[0].n).toBeLessThanOrEqual(SERVER_CONNECTIONS + 1);

    // A write and its read-back, each a transaction of its own on whichever server connection is free.
    const companies = (await (
      await fetch(`${base}/api/companies?builder[0][where][0]=name&builder[0][where][1]=Jansen BV`, {
        headers: bearer(token),
      })
    ).json()) as { data: { id: number }[] };
    const created = await fetch(`${base}/api/companies/${companies.data[0]!.id}`, {
      method: 'PUT',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '020 555 0199' }),
    });
    expect(created.status, await created.text()).toBe(200);
    const read = await fetch(`${base}/api/companies/${companies.data[0]!.id}`, { headers: bearer(token) });
    expect(((await read.json()) as { phone: string }).phone).toBe('020 555 0199');

    // A file of several chunks into the PostgreSQL store and back, byte for byte.
    const content = Buffer.from(randomBytes(300 * 1024).toString('hex'));
    const form = multipart([], [{ field: 'file', name: 'trace.txt', content }]);
    const uploaded = await fetch(`${base}/api/attachments`, {
      method: 'POST',
      headers: { ...form.headers, ...bearer(token) },
      body: new Uint8Array(form.payload),
    });
    const upload = (await uploaded.json()) as { url: string; size: number };
    expect(uploaded.status, JSON.stringify(upload)).toBe(201);
    const file = await fetch(`${base}${upload.url}`);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(content)).toBe(true);
  }, 60_000);

  it('counts wrong passwords in the database and hears a logout on its direct connection', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await signIn('operator@example.com', `wrong-${i}`)).status);
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);

    const { token, cookie } = await signIn('admin@example.com');
    const me = async () => {
      const res = await fetch(`${base}/api/auth/me`, { headers: bearer(token) });
      await res.arrayBuffer();
      return res.status;
    };
    expect(await me()).toBe(200);
    const logout = await fetch(`${base}/api/auth/logout`, {
      method: 'POST',
      headers: { ...bearer(token), cookie },
    });
    expect(logout.status, await logout.text()).toBe(200);
    await waitFor('the logged-out token refused', async () => (await me()) === 401, 2_000, 20);
  }, 60_000);

  it('leaves no session setting behind on pgbouncer’s server connections', async () => {
    // Asked through pgbouncer, each of its server connections holds the role's defaults, not a statement
    // timeout or search path that a request of the service set and left behind for the next client.
    const settings = await Promise.all(
      Array.from({ length: SERVER_CONNECTIONS * 2 }, async () => {
        const { rows } = await onServer(
          bouncerUrl,
          `select current_setting('statement_timeout') as t, current_setting('search_path') as p`,
        );
        return `${rows[0].t}|${rows[0].p}`;
      }),
    );
    expect(new Set(settings)).toEqual(new Set(['0|"$user", public']));
  });
});
