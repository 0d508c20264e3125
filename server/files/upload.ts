/**
 * Reading a multipart/form-data request (@fastify/multipart) into its text fields and its files, each
 * file streamed through the content inspector into the store and judged by name and content
 * (kinds.ts). A file that is refused or too large leaves nothing in the store; when a later check of
 * the request fails, `discard` removes the files that were kept. A body that breaks off (cut short,
 * or the client gone) is a 400 and keeps nothing either.
 */
import { finished } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import { HttpError, ValidationError } from '../http/errors.ts';
import { NUL_TEXT } from '../http/nul-text.ts';
import { boundaryOf, watchFormEnd } from './form-end.ts';
import { ContentInspector, FileTooLargeError } from './inspect.ts';
import { judgeFile, type FileKind } from './kinds.ts';
import type { FileStore } from './store.ts';

export interface StoredUpload {
  key: string;
  /** The uploader's file name, cleaned of paths and control characters. */
  name: string;
  extension: string;
  size: number;
  mime: string;
  kind: FileKind;
  /** The form field it came in (`file`, `file[0]`, …). */
  field: string;
}

export interface MultipartForm {
  /** Text fields by name as sent (`to[]` stays `to[]`); a repeated name collects every value. */
  fields: Map<string, string[]>;
  files: StoredUpload[];
}

export interface UploadLimits {
  maxBytes: number;
  maxFiles: number;
}

/** The limits handed to @fastify/multipart (busboy) for a route; ours are checked again per file. */
export function multipartLimits({ maxBytes, maxFiles }: UploadLimits) {
  return {
    fileSize: maxBytes,
    files: maxFiles,
    fields: 200,
    parts: maxFiles + 200,
    fieldSize: 2 * 1024 * 1024,
  };
}

export const cutOff = () => new HttpError(400, 'The upload was cut off before the form was complete.');

const MB = 1024 * 1024;
export function tooLarge(maxBytes: number): HttpError {
  const size = maxBytes % MB === 0 ? `${maxBytes / MB} MB` : `${maxBytes} bytes`;
  return new HttpError(413, `The file is too large: the limit is ${size}.`);
}

/** A file name without folders, control characters or characters file systems refuse; at most 255. */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/[\p{Cc}\p{Cf}<>:"|?*]+/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  if (clean.length <= 255) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 && clean.length - dot <= 21 ? clean.slice(dot) : '';
  return clean.slice(0, 255 - extension.length) + extension;
}

/** Streams one file part into the store; refuses it (leaving nothing) when judged not allowed. */
export async function storeFilePart(
  store: FileStore,
  part: Pick<MultipartFile, 'file' | 'filename' | 'fieldname'>,
  maxBytes: number,
): Promise<StoredUpload> {
  const name = cleanFileName(part.filename ?? '');
  const inspector = new ContentInspector(maxBytes);
  // The part can fail at any moment (the body ends early, the client goes away), even before we got
  // it or while the store makes its folder: from here on pipeline handles both streams' errors.
  // busboy may destroy a part after queueing its last chunk but before it was read (a body that broke
  // off after it): pipeline would wait for an 'end' that never comes, so such a close ends it here.
  finished(part.file, { writable: false }, (error) => {
    if (inspector.writableFinished || (!error && part.file.readableEnded)) return;
    inspector.destroy(error ?? new Error('The file part closed before its end.'));
  });
  const [inspected, put] = await Promise.allSettled([pipeline(part.file, inspector), store.put(inspector)]);
  if (inspected.status === 'rejected' || put.status === 'rejected') {
    if (put.status === 'fulfilled') await store.remove(put.value.key);
    part.file.resume();
    // One failure shows on both sides; the other side only saw the stream closed under it.
    const failures = [inspected, put].flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
    const cause =
      failures.find((f) => (f as { code?: string }).code !== 'ERR_STREAM_PREMATURE_CLOSE') ?? failures[0];
    if (cause instanceof FileTooLargeError) throw tooLarge(maxBytes);
    throw cause;
  }
  const stored = put.value;
  // busboy stops a file at the limit and marks it truncated: what was kept is not the whole file.
  if ((part.file as { truncated?: boolean }).truncated) {
    await store.remove(stored.key);
    throw tooLarge(maxBytes);
  }
  const verdict = judgeFile(name, inspector.facts());
  if (!verdict.ok) {
    await store.remove(stored.key);
    throw new ValidationError({ [part.fieldname]: [verdict.message] });
  }
  return {
    key: stored.key,
    name,
    extension: verdict.extension,
    size: stored.size,
    mime: verdict.type.mime,
    kind: verdict.type.kind,
    field: part.fieldname,
  };
}

/** Busboy's limit errors in words a caller understands. */
function limitError(error: unknown, limits: UploadLimits): HttpError | undefined {
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(limits.maxBytes);
    case 'FST_FILES_LIMIT':
      return new HttpError(413, `At most ${limits.maxFiles} files can be sent at once.`);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new HttpError(413, 'The form has too many fields.');
    case 'FST_PROTO_VIOLATION':
      return new ValidationError({ body: ['The form has a field name that is not allowed.'] });
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new ValidationError({ body: ['The request must be sent as multipart/form-data.'] });
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new ValidationError({ body: ['A field sent as application/json is not valid JSON.'] });
    default:
      return undefined;
  }
}

/**
 * Reads the whole form. `acceptFile` says which field names may carry files (anything else is a 422
 * before the file is stored). On any error every file already stored is removed; a body that ends
 * before its close delimiter is a 400, whatever the parser made of it.
 */
export async function readMultipart(
  request: FastifyRequest,
  store: FileStore,
  limits: UploadLimits,
  acceptFile: (field: string) => boolean,
): Promise<MultipartForm> {
  const form: MultipartForm = { fields: new Map(), files: [] };
  const boundary = boundaryOf(request.headers['content-type']);
  if (!boundary) {
    throw new ValidationError({
      body: ['The multipart/form-data Content-Type needs a boundary of 1 to 70 characters.'],
    });
  }
  // Attached in the same tick as the parser's pipe (the loop below starts it), so both see every chunk.
  const end = watchFormEnd(request.raw, boundary);
  try {
    for await (const part of request.parts()) {
      if (!part.fieldname) {
        if (part.type === 'file') part.file.resume();
        throw new ValidationError({ body: ['Every part of the form needs a name.'] });
      }
      if (part.type === 'file') {
        if (!acceptFile(part.fieldname)) {
          part.file.resume();
          throw new ValidationError({
            [part.fieldname.slice(0, 60)]: [`The field ${part.fieldname.slice(0, 60)} cannot hold a file.`],
          });
        }
        // busboy counts a part without a filename parameter as a file when its type is application/
        // octet-stream; an empty filename="" (an empty file input) is still a file.
        if (part.filename === undefined) {
          part.file.resume();
          throw new ValidationError({
            [part.fieldname.slice(0, 60)]: ['Every file needs a file name.'],
          });
        }
        if (part.filename.includes('\u0000')) {
          part.file.resume();
          throw new ValidationError({ [part.fieldname.slice(0, 60)]: [NUL_TEXT] }, NUL_TEXT);
        }
        form.files.push(await storeFilePart(store, part, limits.maxBytes));
      } else {
        const value = (part as MultipartValue).value;
        const text = typeof value === 'string' ? value : JSON.stringify(value);
        if (text.includes('\u0000') || part.fieldname.includes('\u0000')) {
          throw new ValidationError({ [part.fieldname.slice(0, 60)]: [NUL_TEXT] }, NUL_TEXT);
        }
        const list = form.fields.get(part.fieldname) ?? [];
        list.push(text);
        form.fields.set(part.fieldname, list);
      }
    }
    if (!end.complete) throw cutOff();
  } catch (error) {
    await discard(store, form.files);
    if (error instanceof HttpError) throw error;
    // Whatever failed, a body that ended (or whose client left) without its delimiter was cut off.
    const broken = !end.complete && (request.raw.readableEnded || request.raw.destroyed);
    throw limitError(error, limits) ?? (broken ? cutOff() : error);
  } finally {
    end.stop();
  }
  return form;
}

/** Removes stored uploads (a request that failed after its files were kept). */
export async function discard(store: FileStore, files: StoredUpload[]): Promise<void> {
  await Promise.allSettled(files.map((f) => store.remove(f.key)));
}
