/**
 * A full check that a PNG can be decoded, before it is stored (a quote's signature) and before pdfkit
 * embeds it: pdfkit decodes images with an alpha channel in a zlib callback, where a corrupt image is an
 * uncaught exception, so nothing reaches pdfkit that has not passed this check.
 *
 * Accepted: 8 bits per sample, not interlaced, colour types grey (0), RGB (2), palette (3, with PLTE),
 * grey+alpha (4) and RGBA (6, what a canvas signature pad writes); at most MAX_PNG_PIXELS pixels. The
 * image data must inflate to exactly the size its header promises, with a valid filter byte per row.
 */
import { inflateSync } from 'node:zlib';

const MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
export const MAX_PNG_PIXELS = 4_000_000;

export function isDecodablePng(bytes: Buffer): boolean {
  try {
    if (bytes.length < 8 + 25 + 12 || !bytes.subarray(0, 8).equals(MAGIC)) return false;
    let offset = 8;
    let header: Buffer | undefined;
    let palette = false;
    let end = false;
    const data: Buffer[] = [];
    while (offset + 12 <= bytes.length) {
      const length = bytes.readUInt32BE(offset);
      const type = bytes.toString('latin1', offset + 4, offset + 8);
      const start = offset + 8;
      if (start + length + 4 > bytes.length) return false;
      const chunk = bytes.subarray(start, start + length);
      if (offset === 8 && type !== 'IHDR') return false;
      if (type === 'IHDR') {
        if (length !== 13 || header) return false;
        header = chunk;
      } else if (type === 'PLTE') palette = true;
      else if (type === 'IDAT') data.push(chunk);
      else if (type === 'IEND') {
        end = true;
        break;
      }
      offset = start + length + 4;
    }
    if (!header || !end || data.length === 0) return false;
    const width = header.readUInt32BE(0);
    const height = header.readUInt32BE(4);
    const [depth, colorType, compression, filter, interlace] = header.subarray(8, 13);
    const channels = CHANNELS[colorType!];
    if (width < 1 || height < 1 || width * height > MAX_PNG_PIXELS) return false;
    if (depth !== 8 || !channels || compression !== 0 || filter !== 0 || interlace !== 0) return false;
    if (colorType === 3 && !palette) return false;
    const rowBytes = width * channels + 1;
    const expected = height * rowBytes;
    // maxOutputLength: a small compressed image cannot inflate into a large allocation.
    const raw = inflateSync(Buffer.concat(data), { maxOutputLength: expected + 1 });
    if (raw.length !== expected) return false;
    for (let row = 0; row < height; row++) if (raw[row * rowBytes]! > 4) return false;
    return true;
  } catch {
    return false;
  }
}

const PNG_PREFIX = 'data:image/png;base64,';

/** True when the text is a PNG data URL whose image decodes (a quote's signature). */
export function isPngDataUrl(value: string): boolean {
  if (!value.startsWith(PNG_PREFIX)) return false;
  const base64 = value.slice(PNG_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.length % 4 !== 0) return false;
  return isDecodablePng(Buffer.from(base64, 'base64'));
}
