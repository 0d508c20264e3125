/**
 * The two files every site is asked for whatever it serves: /robots.txt and /favicon.ico. Neither may
 * be answered by an app's page (200 with HTML): crawlers and browsers take that for the file.
 */
import type { FastifyInstance } from 'fastify';

/** A service desk holds nothing for search engines: its pages are behind a login. */
const ROBOTS = 'User-agent: *\nDisallow: /\n';

const SIZE = 16;

/**
 * A 16×16 icon (the desk's blue with a white ticket bar), drawn here rather than kept as a binary in
 * the repository: ICONDIR, one ICONDIRENTRY, then a 32-bit BMP (height doubled for the AND mask).
 */
function drawIcon(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let row = 0; row < SIZE; row++) {
    // BMP rows run bottom to top.
    const y = SIZE - 1 - row;
    for (let x = 0; x < SIZE; x++) {
      const corner = (x === 0 || x === SIZE - 1) && (y === 0 || y === SIZE - 1);
      const bar = y >= 6 && y <= 9 && x >= 3 && x <= 12;
      const [b, g, r, a] = corner ? [0, 0, 0, 0] : bar ? [255, 255, 255, 255] : [192, 103, 25, 255];
      pixels.set([b!, g!, r!, a!], (row * SIZE + x) * 4);
    }
  }
  const mask = Buffer.alloc(SIZE * 4); // 1 bit a pixel, rows padded to 4 bytes; alpha decides instead
  const info = Buffer.alloc(40);
  info.writeUInt32LE(40, 0);
  info.writeInt32LE(SIZE, 4);
  info.writeInt32LE(SIZE * 2, 8);
  info.writeUInt16LE(1, 12);
  info.writeUInt16LE(32, 14);
  info.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([info, pixels, mask]);
  const head = Buffer.alloc(6 + 16);
  head.writeUInt16LE(1, 2); // type: icon
  head.writeUInt16LE(1, 4); // one image
  head.writeUInt8(SIZE, 6);
  head.writeUInt8(SIZE, 7);
  head.writeUInt16LE(1, 10); // planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(image.length, 14);
  head.writeUInt32LE(head.length, 18);
  return Buffer.concat([head, image]);
}

export const FAVICON = drawIcon();

export function siteFiles(app: FastifyInstance): void {
  const hidden = { schema: { hide: true } };
  app.get('/robots.txt', hidden, (_request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('text/plain; charset=utf-8').send(ROBOTS),
  );
  app.get('/favicon.ico', hidden, (_request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('image/x-icon').send(FAVICON),
  );
}
