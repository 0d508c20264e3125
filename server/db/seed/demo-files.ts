/**
 * Small real files for the demo's attachments (a screenshot, a signed work order, …), made here
 * without image or PDF libraries so the demo stays deterministic: a PNG of a few coloured bands and a
 * one-page PDF with a line of text. They pass the same content checks as an upload.
 */
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([length, body, crc]);
}

/** An RGB PNG of horizontal bands in the given colours (`[r, g, b]` each). */
export function demoPng(width: number, height: number, bands: [number, number, number][]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = width * 3 + 1;
  const raw = Buffer.alloc(height * row);
  for (let y = 0; y < height; y++) {
    const [r, g, b] = bands[Math.floor((y * bands.length) / height)]!;
    for (let x = 0; x < width; x++) raw.set([r, g, b], y * row + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A one-page A4 PDF showing `lines` in Helvetica (ASCII text). */
export function demoPdf(lines: string[]): Buffer {
  const escape = (s: string) => s.replace(/[^\x20-\x7e]/g, '?').replace(/([\\()])/g, '\\$1');
  const text = lines.map(
    (l, i) => `BT /F1 ${i === 0 ? 18 : 11} Tf 60 ${770 - i * 24} Td (${escape(l)}) Tj ET`,
  );
  const stream = text.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** The content of a demo attachment by its file name. */
export function demoFile(name: string): Buffer {
  if (name.endsWith('.pdf')) {
    const title = name.replace(/\.pdf$/, '').replace(/-/g, ' ');
    return demoPdf([
      `Acme IT - ${title}`,
      'Werkzaamheden uitgevoerd volgens afspraak.',
      'Dit is een voorbeeldbestand van de demo.',
    ]);
  }
  return demoPng(320, 200, [
    [32, 84, 147],
    [236, 240, 245],
    [236, 240, 245],
    [236, 240, 245],
    [200, 60, 60],
  ]);
}
