/**
 * The fixed cost of one request through the app (issue 40, item 3): an app on a throwaway PostgreSQL
 * database with the demo data, sequential requests with Node's fetch over one keep-alive connection,
 * median and p99 per call. Three calls: a public JSON answer (headers, tenancy, metrics, no token), the
 * signed-in client's `me` (the token's check and the auth context, next to no SQL) and the client's
 * default ticket list page; besides wall time, the CPU time this process (client and server) spends per
 * call, which a busy machine disturbs less. Run before and after a change on the same machine, and note its load.
 *
 *   npx tsx bench/request-path.ts [postgres://postgres@127.0.0.1:5432/postgres] [calls]
 */
import { randomBytes } from 'node:crypto';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { buildApp } from '../server/app.ts';
import { configFromEnv } from '../server/config.ts';
import { openDatabase } from '../server/db/database.ts';
import { prepareDatabase } from '../server/boot.ts';
import { registry } from '../server/schema/registry.ts';
import { fileStoreFor } from '../server/files/store.ts';

const serverUrl = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const calls = Number(process.argv[3] ?? 3000);

const name = `bench_path_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;

const config = {
  ...configFromEnv({}),
  dataDir: join(tmpdir(), name),
  jwtSecret: `bench-${randomBytes(8).toString('hex')}`,
};
const { db, close } = await openDatabase({ url: url.toString(), poolSize: 4 });
const reg = registry();
await prepareDatabase(db, reg, 'demo', undefined, fileStoreFor(config, db));
const app = await buildApp({ db, registry: reg, config, exports: { enabled: false }, fileSweepMs: 0 });
await app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

const login = await fetch(`${origin}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'client@example.com', password: 'demo' }),
});
const body = (await login.json()) as { access_token?: string };
if (!body.access_token) throw new Error(`login: ${login.status} ${JSON.stringify(body)}`);
const token = body.access_token;
const auth = { authorization: `Bearer ${token}` };

async function measure(label: string, path: string, headers: Record<string, string>) {
  const times: number[] = [];
  let cpu = process.cpuUsage();
  for (let i = 0; i < calls + 200; i++) {
    if (i === 200) cpu = process.cpuUsage();
    const start = process.hrtime.bigint();
    const res = await fetch(origin + path, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    // The first 200 warm the caches, the connection and the JIT.
    if (i >= 200) times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const used = process.cpuUsage(cpu);
  // CPU of this process (client and server alike) per call: steadier than wall time on a busy machine.
  const cpuPerCall = ((used.user + used.system) / calls).toFixed(0);
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(3);
  console.log(
    `${label.padEnd(28)} median ${at(0.5)} ms  p99 ${at(0.99)} ms  CPU ${cpuPerCall} µs/call  (${calls} calls)`,
  );
}

console.log(
  `load before: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await measure('GET /api/system/status', '/api/system/status', {});
await measure('GET /api/auth/me (client)', '/api/auth/me', auth);
await measure('GET /api/tickets (client)', '/api/tickets', auth);
console.log(
  `load after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

await app.close();
await close();
await admin.query(`drop database ${name} with (force)`);
await admin.end();
