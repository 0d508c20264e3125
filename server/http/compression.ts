import fp from 'fastify-plugin';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * API answers compressed when the caller accepts it (issue 40): a page of tickets is 16 to 28 kB of
 * JSON, about a tenth of that gzipped, which is what a phone on a slow line waits for. Only answers of
 * at least COMPRESS_THRESHOLD bytes: below it the headers and the work cost more than they save.
 * Brotli at quality 4 (the plugin's default), gzip and deflate; the built apps' files are served
 * pre-compressed (server/web/plugin.ts) and are not compressed again.
 *
 * Never the live event streams (text/event-stream): a compressor holds back what it has not filled a
 * block with, and an event must reach the browser when it happens. The plugin's own list of
 * compressible types leaves them out; tests/api/compression.test.ts holds it.
 */
export const COMPRESS_THRESHOLD = 1024;

async function compression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip', 'deflate'],
  });
}

export const compressionPlugin = fp(compression, { name: 'compression', fastify: '5.x' });
