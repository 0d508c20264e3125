/**
 * The stack's own limit for a list call (issue 17, target 2): a minimal Fastify route, in a process of
 * its own like the bare route, that runs the default list's captured statements through its own `pg`
 * pool (the app's pool size) in the order the API ran them, then sends the API's own page body. No
 * auth, no query-string parsing, no whitelist, no Kysely, no response schema: what is left is HTTP,
 * the driver and PostgreSQL.
 * Usage: tsx bench/sql-server.ts <page.json> <statements.json> (database from BENCH_DATABASE_URL);
 * prints the port it listens on.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import { replay, type Statement } from './capture.ts';

const page = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as unknown;
const statements = JSON.parse(readFileSync(process.argv[3]!, 'utf8')) as Statement[];
const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 });
// An idle connection that PostgreSQL drops (a restart) is an 'error' event: without a listener it would
// end this process; the pool opens a new one at the next call, whose failure answers 500 meanwhile.
pool.on('error', (error) => console.error(`pg route: idle connection lost: ${error.message}`));
const app = Fastify({ logger: false });
app.get('/page', async () => {
  await replay(statements, (sql, parameters) => pool.query(sql, parameters as unknown[]));
  return page;
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
