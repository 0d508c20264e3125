/**
 * `npm run setup` and `npm run tenant:create` (issue 32), as a terminal runs them, on an empty embedded
 * database and on an empty PostgreSQL database: the first creates the tenant and its operator, a second
 * setup is refused (exit 1), a weak password and missing options create nothing (exit 2), another
 * tenant is created beside the first; then a server started on that database serves the desk the
 * journey of ./first-run-journey.ts needs, and the second tenant on its own subdomain.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PGLITE_NODE_FLAGS } from '../node-flags.ts';
import { runSetupCommand } from '../../server/setup/cli.ts';
import { freePort, startServer, type ServerProcess } from './processes.ts';
import { journeyAfterSetup, OPERATOR, type Call } from './first-run-journey.ts';

/** The command as `npm run setup -- …` runs it; its exit code and what it printed. */
function setupCommand(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [...PGLITE_NODE_FLAGS, '--import', 'tsx', 'scripts/setup.ts', ...args],
      {
        env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

const FIRST = [
  '--tenant',
  'Bakker ICT',
  '--admin-email',
  OPERATOR.email,
  '--admin-name',
  'Bea van Bakker',
  '--language',
  'en',
];

/**
 * The command's own code in this process, its arguments read as scripts/setup.ts reads them: the same
 * exit code and words as the terminal's, without a process start (tsx and the server's modules,
 * several seconds under load) for each.
 */
async function setupInProcess(args: string[], env: Record<string, string>) {
  let out = '';
  const line = (text: string) => (out += `${text}\n`);
  const another = args[0] === '--another';
  const code = await runSetupCommand(
    another ? 'another' : 'first',
    another ? args.slice(1) : args,
    { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
    { out: line, err: line, askPassword: () => Promise.resolve(undefined) },
  );
  return { code, out };
}

async function cliJourney(env: Record<string, string>) {
  const withPassword = { ...env, SETUP_ADMIN_PASSWORD: OPERATOR.password };
  // Each outcome of the terminal (exit 0, 1 and 2, and tenant:create) is checked as a process in the
  // embedded run; on PostgreSQL only the first setup is, the others run in this process.
  const command = env.DATABASE_URL ? setupInProcess : setupCommand;
  const missing = await command(['--tenant', 'Bakker ICT'], withPassword);
  expect(missing.code, missing.out).toBe(2);
  expect(missing.out).toContain('--admin-email needs an e-mail address');
  const weak = await setupInProcess(FIRST, { ...env, SETUP_ADMIN_PASSWORD: 'football' });
  expect(weak.code, weak.out).toBe(2);
  expect(weak.out).toContain('one of the most common passwords');

  const first = await setupCommand(FIRST, withPassword);
  expect(first.code, first.out).toBe(0);
  expect(first.out).toContain(`Tenant "Bakker ICT" (acme) created with operator ${OPERATOR.email}`);
  const again = await command(FIRST, withPassword);
  expect(again.code, again.out).toBe(1);
  expect(again.out).toContain('This desk has been set up already');
  const another = await command(
    [
      '--another',
      '--tenant',
      'Tweede Desk',
      '--slug',
      'tweede',
      '--admin-email',
      'tweede@provider.test',
      '--admin-name',
      'Tom Twee',
    ],
    { ...env, SETUP_ADMIN_PASSWORD: 'Nog een lange zin' },
  );
  expect(another.code, another.out).toBe(0);
  const taken = await command(
    [
      '--another',
      '--tenant',
      'Dubbel',
      '--slug',
      'tweede',
      '--admin-email',
      'd@provider.test',
      '--admin-name',
      'Do Dubbel',
    ],
    { ...env, SETUP_ADMIN_PASSWORD: 'Nog een lange zin' },
  );
  expect(taken.code, taken.out).toBe(1);
  expect(taken.out).toContain('There is already a tenant at the address tweede.');

  const server: ServerProcess = startServer({
    ...env,
    SEED: 'none',
    PORT: String(await freePort()),
    // No balancer watches it: the stop need not answer not-ready for SHUTDOWN_DRAIN_MS (5 s) first.
    SHUTDOWN_DRAIN_MS: '0',
  });
  try {
    await server.ready;
    const call: Call = async (method, path, body, headers = {}) => {
      const res = await fetch(`${server.base}${path}`, {
        method,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    await journeyAfterSetup(call, 'Bakker ICT');
    // The second tenant answers on its subdomain, with its own name (fetch may not set Host: http may).
    const status = await new Promise<string>((resolve, reject) => {
      const req = request(
        `${server.base}/api/system/status`,
        { headers: { host: 'tweede.localhost' } },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(JSON.parse(status)).toMatchObject({ tenant: 'tweede', tenant_name: 'Tweede Desk' });
  } finally {
    await server.stop();
  }
}

describe('npm run setup on the embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sd-setup-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('sets up once, refuses again, adds a tenant, and the desk works', { timeout: 240_000 }, async () => {
    await cliJourney({ DATA_DIR: dataDir });
  });
});

const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('npm run setup on postgres', () => {
  const name = `sd_setup_${randomBytes(4).toString('hex')}`;
  const url = new URL(adminUrl ?? 'postgres://localhost/x');
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'sd-setup-cli-'));
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  afterAll(async () => {
    await admin(`drop database if exists ${name} with (force)`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sets up once, refuses again, adds a tenant, and the desk works', { timeout: 240_000 }, async () => {
    await admin(`create database ${name}`);
    await cliJourney({ DATA_DIR: dataDir, DATABASE_URL: url.toString() });
  });
});
