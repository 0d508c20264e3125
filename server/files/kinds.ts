/**
 * The kinds of file SPEC 9 allows (images, pdf, office, audio, video, archive, code, text), by
 * extension, each with what its content must look like. A name alone proves nothing: a `.png` must
 * start like a PNG, and a text or code file must be UTF-8 without NUL bytes, so an HTML page renamed
 * to `.png` (or a binary renamed to `.txt`) is refused.
 *
 * The Content-Type a file is served with comes from this table, never from the uploader.
 */

export type FileKind = 'image' | 'pdf' | 'office' | 'audio' | 'video' | 'archive' | 'code' | 'text';

export interface FileType {
  kind: FileKind;
  mime: string;
  /** Binary kinds: the content's signature. Text kinds have none and are checked as UTF-8 instead. */
  magic?: (head: Buffer) => boolean;
  /** Shown in the browser rather than downloaded: only images that cannot run script, and PDF. */
  inline?: boolean;
}

/** The sentence a refused upload answers with (422), so the caller knows what is allowed. */
export const ALLOWED_TEXT =
  'Allowed are images, PDF, office documents, audio, video, archives, code and text files.';

const starts =
  (...signatures: (string | number[])[]) =>
  (head: Buffer) =>
    signatures.some((s) => {
      const bytes = typeof s === 'string' ? Buffer.from(s, 'latin1') : Buffer.from(s);
      return head.length >= bytes.length && head.subarray(0, bytes.length).equals(bytes);
    });
const at = (offset: number, text: string) => (head: Buffer) =>
  head.length >= offset + text.length && head.toString('latin1', offset, offset + text.length) === text;
const both =
  (...tests: ((head: Buffer) => boolean)[]) =>
  (head: Buffer) =>
    tests.every((t) => t(head));

const ZIP = starts('PK\x03\x04', 'PK\x05\x06');
const OLE = starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** ISO base media (mp4, mov, m4a, heic): a box of type `ftyp` first. */
const FTYP = at(4, 'ftyp');
const RIFF = (form: string) => both(starts('RIFF'), at(8, form));
const EBML = starts([0x1a, 0x45, 0xdf, 0xa3]);
/** MPEG audio: an ID3 tag or a frame sync (11 set bits). */
const MP3 = (head: Buffer) =>
  starts('ID3')(head) || (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0);
const ADTS = (head: Buffer) => head.length >= 2 && head[0] === 0xff && (head[1]! & 0xf6) === 0xf0;

const image = (mime: string, magic: FileType['magic'], inline = true): FileType => ({
  kind: 'image',
  mime,
  magic,
  inline,
});
const binary = (kind: FileKind, mime: string, magic: FileType['magic']): FileType => ({ kind, mime, magic });
const text = (kind: 'code' | 'text', mime: string): FileType => ({ kind, mime });

/** Every allowed extension (lower case, without the dot). */
export const FILE_TYPES: Readonly<Record<string, FileType>> = {
  // images
  png: image('image/png', starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpg: image('image/jpeg', starts([0xff, 0xd8, 0xff])),
  jpeg: image('image/jpeg', starts([0xff, 0xd8, 0xff])),
  gif: image('image/gif', starts('GIF87a', 'GIF89a')),
  webp: image('image/webp', RIFF('WEBP')),
  bmp: image('image/bmp', starts('BM')),
  ico: image('image/vnd.microsoft.icon', starts([0, 0, 1, 0])),
  tif: image('image/tiff', starts('II*\x00', 'MM\x00*'), false),
  tiff: image('image/tiff', starts('II*\x00', 'MM\x00*'), false),
  heic: image('image/heic', FTYP, false),
  // SVG can carry script: it is text, checked as text, and always served as a download.
  svg: { kind: 'image', mime: 'image/svg+xml' },
  // pdf
  pdf: { kind: 'pdf', mime: 'application/pdf', magic: starts('%PDF-'), inline: true },
  // office
  doc: binary('office', 'application/msword', OLE),
  dot: binary('office', 'application/msword', OLE),
  xls: binary('office', 'application/vnd.ms-excel', OLE),
  ppt: binary('office', 'application/vnd.ms-powerpoint', OLE),
  msg: binary('office', 'application/vnd.ms-outlook', OLE),
  docx: binary('office', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ZIP),
  xlsx: binary('office', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ZIP),
  pptx: binary('office', 'application/vnd.openxmlformats-officedocument.presentationml.presentation', ZIP),
  odt: binary('office', 'application/vnd.oasis.opendocument.text', ZIP),
  ods: binary('office', 'application/vnd.oasis.opendocument.spreadsheet', ZIP),
  odp: binary('office', 'application/vnd.oasis.opendocument.presentation', ZIP),
  rtf: binary('office', 'application/rtf', starts('{\\rtf')),
  // audio
  mp3: binary('audio', 'audio/mpeg', MP3),
  wav: binary('audio', 'audio/wav', RIFF('WAVE')),
  ogg: binary('audio', 'audio/ogg', starts('OggS')),
  oga: binary('audio', 'audio/ogg', starts('OggS')),
  flac: binary('audio', 'audio/flac', starts('fLaC')),
  m4a: binary('audio', 'audio/mp4', FTYP),
  aac: binary('audio', 'audio/aac', ADTS),
  // video
  mp4: binary('video', 'video/mp4', FTYP),
  m4v: binary('video', 'video/mp4', FTYP),
  mov: binary('video', 'video/quicktime', FTYP),
  webm: binary('video', 'video/webm', EBML),
  mkv: binary('video', 'video/x-matroska', EBML),
  avi: binary('video', 'video/x-msvideo', RIFF('AVI ')),
  mpg: binary('video', 'video/mpeg', starts([0, 0, 1, 0xba], [0, 0, 1, 0xb3])),
  mpeg: binary('video', 'video/mpeg', starts([0, 0, 1, 0xba], [0, 0, 1, 0xb3])),
  wmv: binary('video', 'video/x-ms-wmv', starts([0x30, 0x26, 0xb2, 0x75])),
  // archives
  zip: binary('archive', 'application/zip', ZIP),
  rar: binary('archive', 'application/vnd.rar', starts('Rar!\x1a\x07')),
  '7z': binary('archive', 'application/x-7z-compressed', starts([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])),
  gz: binary('archive', 'application/gzip', starts([0x1f, 0x8b])),
  tgz: binary('archive', 'application/gzip', starts([0x1f, 0x8b])),
  bz2: binary('archive', 'application/x-bzip2', starts('BZh')),
  xz: binary('archive', 'application/x-xz', starts([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])),
  tar: binary('archive', 'application/x-tar', at(257, 'ustar')),
  // code: served as downloads with their own type; HTML in particular never renders from here
  html: text('code', 'text/html'),
  htm: text('code', 'text/html'),
  css: text('code', 'text/css'),
  js: text('code', 'text/javascript'),
  ts: text('code', 'text/plain'),
  json: text('code', 'application/json'),
  xml: text('code', 'application/xml'),
  yml: text('code', 'text/yaml'),
  yaml: text('code', 'text/yaml'),
  sql: text('code', 'text/plain'),
  sh: text('code', 'text/plain'),
  ps1: text('code', 'text/plain'),
  bat: text('code', 'text/plain'),
  py: text('code', 'text/plain'),
  php: text('code', 'text/plain'),
  java: text('code', 'text/plain'),
  c: text('code', 'text/plain'),
  h: text('code', 'text/plain'),
  cpp: text('code', 'text/plain'),
  cs: text('code', 'text/plain'),
  go: text('code', 'text/plain'),
  rb: text('code', 'text/plain'),
  // text
  txt: text('text', 'text/plain'),
  log: text('text', 'text/plain'),
  md: text('text', 'text/markdown'),
  csv: text('text', 'text/csv'),
  ini: text('text', 'text/plain'),
  conf: text('text', 'text/plain'),
  eml: text('text', 'message/rfc822'),
};

/** The extension of a file name, lower case, without the dot; '' when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

/** What an inspection of the whole content found (see inspect.ts). */
export interface ContentFacts {
  /** The first bytes (at least 512, when the file has them). */
  head: Buffer;
  size: number;
  /** Valid UTF-8 (a BOM allowed) without a NUL byte. */
  isText: boolean;
}

export type Verdict = { ok: true; type: FileType; extension: string } | { ok: false; message: string };

/** Whether a file of this name and content may be stored. */
export function judgeFile(name: string, facts: ContentFacts): Verdict {
  const extension = extensionOf(name);
  const type = Object.hasOwn(FILE_TYPES, extension) ? FILE_TYPES[extension] : undefined;
  if (!type) {
    const what = extension ? `Files of type .${extension}` : 'Files without an extension';
    return { ok: false, message: `${what} are not allowed. ${ALLOWED_TEXT}` };
  }
  if (facts.size === 0) return { ok: false, message: 'The file is empty.' };
  const matches = type.magic ? type.magic(facts.head) : facts.isText && looksRight(extension, facts.head);
  if (!matches) {
    return {
      ok: false,
      message: `The content of the file does not match its extension .${extension}. ${ALLOWED_TEXT}`,
    };
  }
  return { ok: true, type, extension };
}

/** Text kinds with a shape of their own: an SVG must be an SVG document, not any text. */
function looksRight(extension: string, head: Buffer): boolean {
  if (extension !== 'svg') return true;
  return /<svg[\s>]/i.test(head.toString('utf8'));
}
