/**
 * Issue 32 item 5: /robots.txt and /favicon.ico answer real files, and a script, style or image that the
 * build does not hold answers 404 rather than an app's page with 200 (a browser would run the HTML as a
 * script and report a syntax error; a crawler would index it). On a build of its own, so it needs no
 * npm run build: the apps' pages still answer for their addresses.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webApps } from '../../server/web/plugin.ts';

describe('robots.txt, favicon.ico and missing built files', () => {
  const distDir = mkdtempSync(join(tmpdir(), 'sd-site-files-'));
  let app: FastifyInstance;

  beforeAll(async () => {
    mkdirSync(join(distDir, 'app'));
    mkdirSync(join(distDir, 'static'));
    writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>back office</title>');
    writeFileSync(join(distDir, 'app', 'index.html'), '<!doctype html><title>portal</title>');
    writeFileSync(join(distDir, 'static', 'main-abc123.js'), 'console.log(1)');
    app = Fastify();
    await app.register(webApps, { distDir });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    rmSync(distDir, { recursive: true, force: true });
  });

  const get = (url: string) => app.inject({ method: 'GET', url });

  it('answers a robots file that keeps crawlers out, as plain text', async () => {
    const res = await get('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('User-agent: *\nDisallow: /\n');
  });

  it('answers a real 16×16 icon', async () => {
    const res = await get('/favicon.ico');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    const icon = res.rawPayload;
    // ICONDIR: reserved 0, type 1 (icon), one image; its entry: 16×16, 32 bits, the image right after.
    expect([icon.readUInt16LE(0), icon.readUInt16LE(2), icon.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([icon[6], icon[7], icon.readUInt16LE(12)]).toEqual([16, 16, 32]);
    expect(icon.readUInt32LE(18)).toBe(22);
    expect(icon.readUInt32LE(14)).toBe(icon.length - 22);
    // The image is a BMP header of 40 bytes for 16 wide and 32 high (the pixels and the mask).
    expect([icon.readUInt32LE(22), icon.readInt32LE(26), icon.readInt32LE(30)]).toEqual([40, 16, 32]);
  });

  it.each([
    '/foo.js',
    '/assets/nope.js',
    '/app/nope.css',
    '/tickets/logo.png',
    '/app/x.js.map',
    '/static/gone.js',
  ])('answers 404 for %s, a file the build does not hold', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<!doctype html>');
  });

  it('still serves the built files and the apps’ pages', async () => {
    const script = await get('/static/main-abc123.js');
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe('console.log(1)');
    for (const [url, title] of [
      ['/tickets/12', 'back office'],
      ['/assets/7', 'back office'],
      ['/app/tickets/3', 'portal'],
    ]) {
      const page = await get(url!);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain(`<title>${title}</title>`);
    }
  });
});
