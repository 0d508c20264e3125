/**
 * The physical limit of the throughput section: a bare Fastify route that answers a fixed JSON page
 * (the API's own default list page, read from a file), in a process of its own.
 * Usage: tsx bench/bare-server.ts <page.json>; prints the port it listens on.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const page = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as unknown;
const app = Fastify({ logger: false });
app.get('/page', async () => page);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
