/**
 * Compressed answers (issue 40, item 4): a list page goes out brotli or gzip when the caller accepts it,
 * the same JSON once unpacked; a small answer goes out as it is; and the live event stream is never
 * compressed, so each event still arrives when it happens.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_THRESHOLD } from '../../server/http/compression.ts';
import { ANSWER_LIMITS } from '../../server/query/limits.ts';
import { buildTestApp, targets, type TestApp } from './harness.ts';
import { openEvents } from './sse.ts';
import { storedTextFile } from './served-files.ts';

describe.each(targets)('compressed answers on $name', (target) => {
  let t: TestApp;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp(target);
    admin = await t.as('admin@example.com');
  });
  afterAll(async () => t?.close());

  const tickets = (encoding?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/tickets?with[]=company&with[]=status',
      headers: { ...admin, ...(encoding ? { 'accept-encoding': encoding } : {}) },
    });

  it('sends a list page brotli or gzip compressed, the same JSON once unpacked', async () => {
    const plain = await tickets();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD);

    const br = await tickets('br, gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());

    const gzip = await tickets('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('measures the size ceiling on the answer before it is compressed', async () => {
    // The ceiling lowered for this test (the object is read-only to the server's code, not at run time).
    const limits = ANSWER_LIMITS as { maxBytes: number };
    const kept = limits.maxBytes;
    limits.maxBytes = COMPRESS_THRESHOLD;
    try {
      const res = await tickets('br, gzip');
      expect(res.statusCode).toBe(422);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(Object.keys(res.json().errors)).toEqual(['builder']);
    } finally {
      limits.maxBytes = kept;
    }
  });

  it('sends a stored file as it was stored, also one whose first bytes look compressed', async () => {
    // '80' passes the compressor's check for a deflate header (server/files/serve.ts UNCOMPRESSED): such
    // a file went out as it is, labelled gzip, and no client could read it.
    const content = `80${'a'.repeat(2 * COMPRESS_THRESHOLD)}`;
    const url = await storedTextFile(t, admin, content);
    for (const encoding of ['gzip', 'br, gzip, deflate']) {
      const file = await t.app.inject({
        method: 'GET',
        url,
        headers: { ...admin, 'accept-encoding': encoding },
      });
      expect(file.statusCode, file.body).toBe(200);
      expect(file.headers['content-encoding']).toBeUndefined();
      expect(file.rawPayload.toString('utf8')).toBe(content);
    }
  });

  it('sends a small answer as it is', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/tickets/999999999',
      headers: { ...admin, 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ message: 'Not found.' });
  });

  it('never compresses the live event stream', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const stream = await openEvents(origin, { ...admin, 'accept-encoding': 'br, gzip, deflate' });
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(stream.headers['content-encoding']).toBeUndefined();
      // Readable as plain text: the parser found the first event.
      expect((await stream.next((e) => e.event === 'ready')).event).toBe('ready');
    } finally {
      stream.close();
    }
  });
});
