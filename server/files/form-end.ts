/**
 * Whether a multipart body arrived whole. busboy (under @fastify/multipart) ends the parts of a body
 * that stops before its close delimiter as if the form were complete, so a form cut off inside or
 * between its text fields would pass with fields missing: this watches the body for the delimiter.
 */
import type { Readable } from 'node:stream';

/** RFC 2046 5.1.1: a boundary is 1 to 70 characters. */
const MAX_BOUNDARY = 70;

/**
 * The boundary parameter of a multipart Content-Type, plain or quoted, as busboy reads it (spaces
 * outside quotes dropped, backslash escapes inside); undefined when missing or not 1 to 70 characters.
 */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(contentType ?? '');
  if (!match) return undefined;
  const boundary =
    match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2]!.replace(/[ \t]+/g, '');
  return boundary.length >= 1 && boundary.length <= MAX_BOUNDARY ? boundary : undefined;
}

export interface FormEnd {
  /** The close delimiter has arrived. */
  readonly complete: boolean;
  /** Stops watching (the form has been read or refused). */
  stop(): void;
}

/**
 * Watches `body` for `CRLF--boundary--`, across chunk edges; a body may also start with the delimiter
 * (an empty form without preamble). Attach in the same tick as the parser's pipe, so both see every
 * chunk; a second 'data' listener neither starts nor holds up the flow the pipe controls.
 */
export function watchFormEnd(body: Readable, boundary: string): FormEnd {
  const delimiter = Buffer.from(`\r\n--${boundary}--`);
  const keep = delimiter.length - 1;
  let tail: Buffer = Buffer.from('\r\n');
  let complete = false;
  const onData = (chunk: Buffer | string) => {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    const seam = Buffer.concat([tail, bytes.subarray(0, keep)]);
    if (seam.includes(delimiter) || bytes.includes(delimiter)) {
      complete = true;
      body.off('data', onData);
      return;
    }
    tail = bytes.length >= keep ? bytes.subarray(bytes.length - keep) : seam.subarray(-keep);
  };
  body.on('data', onData);
  return {
    get complete() {
      return complete;
    },
    stop: () => body.off('data', onData),
  };
}
