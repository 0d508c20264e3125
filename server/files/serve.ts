/**
 * The response headers of a stored file. A file from a user is never allowed to act as a page of this
 * site: its type comes from our table (kinds.ts), never from the upload, and is not sniffed; only
 * images that cannot carry script and PDF are shown inline (SVG and HTML are downloads); and the
 * content runs in a CSP sandbox (no script, no same-origin access) should a browser render it anyway.
 */
import { FILE_TYPES } from './kinds.ts';

const TEXT_KINDS = new Set(['code', 'text']);

/** RFC 6266: a plain ASCII `filename` every browser reads, plus the real name in `filename*`. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9 ._()-]+/g, '_')
      .replace(/^[\s.]+|\s+$/g, '') || 'file';
  const plain = `${kind}; filename="${ascii}"`;
  if (ascii === name) return plain;
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${plain}; filename*=UTF-8''${encoded}`;
}

export function fileHeaders(file: {
  name: string;
  extension: string | null;
  size: number;
}): Record<string, string> {
  const type =
    file.extension && Object.hasOwn(FILE_TYPES, file.extension) ? FILE_TYPES[file.extension] : undefined;
  const contentType = !type
    ? 'application/octet-stream'
    : TEXT_KINDS.has(type.kind) || file.extension === 'svg'
      ? `${type.mime}; charset=utf-8`
      : type.mime;
  return {
    'content-type': contentType,
    'content-disposition': contentDisposition(type?.inline ? 'inline' : 'attachment', file.name),
    'content-length': String(file.size),
    'x-content-type-options': 'nosniff',
    'content-security-policy': 'sandbox',
    'cross-origin-resource-policy': 'same-origin',
    // The address carries a token of one reader: no shared cache may keep it.
    'cache-control': 'private, max-age=300',
  };
}

/**
 * The route option of every route that sends a stored file: never compressed. The compressor passes a
 * stream through as it is when its first two bytes look compressed (a gzip or RFC 1950 deflate header,
 * a check that the text '80' or 'x ' passes), yet still labels it with the encoding it chose: such a text
 * file reached the browser as "content-encoding: gzip" and could not be read. Uploads are mostly
 * compressed formats anyway, and a download's size is the file's.
 */
export const UNCOMPRESSED = { compress: false } as const;
