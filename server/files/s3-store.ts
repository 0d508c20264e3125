/**
 * Files in an S3-compatible bucket (FILES_STORE=s3): every instance using the bucket serves every file,
 * with no shared disk and no file content in the database. One object per file, under
 * `<FILES_S3_PREFIX><key>`, so one bucket can hold the files of several deployments.
 *
 * - put streams in bounded memory: a file that fits in one part (PART_BYTES) is one PutObject; a larger
 *   one is a multipart upload, one part buffered at a time, completed at the end. Any error aborts the
 *   upload (nothing left behind); a process that dies mid-upload leaves an unfinished upload that
 *   `removeAbandoned` (the sweep) aborts once its last part is old enough.
 * - open answers the object's body as it comes from S3: nothing is held beyond the socket's buffers.
 * - A store that does not answer (connection refused, timeouts, 5xx) fails with FileStoreUnavailable,
 *   which requests answer with 503; a missing object is `undefined`, as in every store.
 */
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { isFileKey, newKey } from './keys.ts';
import type { FileStore } from './file-store.ts';
import { FileStoreUnavailable } from './unavailable.ts';

/** The settings FILES_S3_* (config.ts). */
export interface S3Settings {
  bucket: string;
  /** An S3-compatible server's address; unset: AWS S3 of `region`. */
  endpoint?: string;
  region: string;
  /** Both or neither; neither: the SDK's default chain (environment, profile, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key`; most S3-compatible servers want it. */
  forcePathStyle: boolean;
  /** Put before every key: '' or ending in '/'. */
  prefix: string;
}

/**
 * 8 MB: above S3's 5 MB minimum for every part but the last, and the most one upload holds in memory.
 * The 20 MB attachment limit makes at most three parts; most files are a single PutObject.
 */
export const PART_BYTES = 8 * 1024 * 1024;
/** The first buffer of a put; it doubles as the content grows, so a small file costs little memory. */
const FIRST_BUFFER_BYTES = 64 * 1024;

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);

interface SdkError {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

const statusOf = (error: unknown) => (error as SdkError).$metadata?.httpStatusCode;

/**
 * Whether the store could not be asked at all, or failed on its side: no answer (refused, reset, timed
 * out) or a 5xx. 501 is a server that lacks an operation, which waiting does not cure.
 */
export function isUnreachable(error: unknown): boolean {
  const { name, code } = error as SdkError;
  const status = statusOf(error);
  if (status !== undefined) return status >= 500 && status !== 501;
  return (typeof code === 'string' && NETWORK_CODES.has(code)) || name === 'TimeoutError';
}

const isNotFound = (error: unknown) =>
  statusOf(error) === 404 || ['NoSuchKey', 'NotFound'].includes((error as SdkError).name ?? '');

/** Clients by settings: the app asks for its store in several places, each should share one pool of sockets. */
const clients = new WeakMap<S3Settings, S3Client>();

export function s3ClientFor(settings: S3Settings): S3Client {
  let client = clients.get(settings);
  if (!client) {
    client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // Checksums only where S3 demands them: the SDK's newer default (CRC32 on every upload) is
      // refused by several S3-compatible servers, and TLS already protects the bytes in transit.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // A store that does not answer fails the request within seconds, not after the client's own
      // timeout. The request timeout is the socket's idle time: a download paused for a slow reader
      // longer than this is cut, which is why it is generous.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
    });
    clients.set(settings, client);
  }
  return client;
}

/**
 * The bucket as the server starts with it. A bucket that does not exist, refuses our credentials or
 * lives in another region is a configuration error (thrown, with the setting to fix); a store that
 * does not answer is not, and is returned as a warning: the instance starts, and requests that need a
 * file answer 503 until the store is back.
 */
export async function checkS3Bucket(settings: S3Settings): Promise<string | undefined> {
  const where = settings.endpoint ?? `AWS S3 in ${settings.region}`;
  try {
    await s3ClientFor(settings).send(new HeadBucketCommand({ Bucket: settings.bucket }));
    return undefined;
  } catch (error) {
    if (isUnreachable(error)) {
      return `The file store (${where}) cannot be reached: ${(error as Error).message}. Files answer 503 until it can.`;
    }
    const status = statusOf(error);
    if (status === 404)
      throw new Error(`FILES_S3_BUCKET: the bucket "${settings.bucket}" does not exist at ${where}.`, {
        cause: error,
      });
    if (status === 403)
      throw new Error(
        `FILES_S3_BUCKET: access to the bucket "${settings.bucket}" at ${where} is denied; check ` +
          'FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY (or the credentials the SDK found) and the bucket policy.',
        { cause: error },
      );
    if (status === 301)
      throw new Error(
        `FILES_S3_REGION: the bucket "${settings.bucket}" is in another region than ${settings.region}.`,
        { cause: error },
      );
    throw new Error(`FILES_S3_BUCKET: the bucket "${settings.bucket}" at ${where} cannot be used.`, {
      cause: error,
    });
  }
}

/**
 * The store on `settings`. `fallback`: where files written before the switch are (DATA_DIR/files);
 * they open from there until `npm run files:migrate` has copied them.
 */
export function s3FileStore(settings: S3Settings, options: { fallback?: FileStore } = {}): FileStore {
  const { fallback } = options;
  const client = s3ClientFor(settings);
  const Bucket = settings.bucket;
  const objectKey = (key: string) => settings.prefix + key;

  /** A command's answer; an unreachable store becomes FileStoreUnavailable, anything else stays as it is. */
  async function guard<T>(request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error) {
      throw isUnreachable(error) ? new FileStoreUnavailable(error) : error;
    }
  }

  /**
   * Writes the content under `key`, one part in memory at a time. On any error the multipart upload is
   * aborted (should that fail too, the sweep aborts it later) and the content stream fails with it: an
   * upload piping into it would otherwise wait for a reader that is gone.
   */
  async function write(key: string, content: Readable | Buffer): Promise<number> {
    const Key = objectKey(key);
    if (Buffer.isBuffer(content) && content.length <= PART_BYTES) {
      await guard(
        client.send(new PutObjectCommand({ Bucket, Key, Body: content, ContentLength: content.length })),
      );
      return content.length;
    }
    const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
    let buffer = Buffer.allocUnsafe(FIRST_BUFFER_BYTES);
    let filled = 0;
    let size = 0;
    let uploadId: string | undefined;
    const parts: CompletedPart[] = [];

    /** Sends the full buffer as the next part; the buffer is free again once S3 has it. */
    async function flush(): Promise<void> {
      if (uploadId === undefined) {
        const created = await guard(client.send(new CreateMultipartUploadCommand({ Bucket, Key })));
        if (!created.UploadId) throw new Error(`S3 started no upload for ${Key}`);
        uploadId = created.UploadId;
      }
      const PartNumber = parts.length + 1;
      const { ETag } = await guard(
        client.send(
          new UploadPartCommand({
            Bucket,
            Key,
            UploadId: uploadId,
            PartNumber,
            Body: buffer.subarray(0, filled),
            ContentLength: filled,
          }),
        ),
      );
      parts.push({ PartNumber, ETag });
      filled = 0;
    }

    try {
      for await (const piece of source as AsyncIterable<Buffer | string>) {
        let bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
        size += bytes.length;
        while (bytes.length > 0) {
          // A full part is sent only when more content follows, so the last part is never empty and a
          // file of exactly one part stays a single PutObject.
          if (filled === PART_BYTES) await flush();
          if (filled === buffer.length) {
            const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, PART_BYTES));
            buffer.copy(grown, 0, 0, filled);
            buffer = grown;
          }
          const copied = bytes.copy(buffer, filled);
          filled += copied;
          bytes = bytes.subarray(copied);
        }
      }
      if (uploadId === undefined) {
        await guard(
          client.send(
            new PutObjectCommand({ Bucket, Key, Body: buffer.subarray(0, filled), ContentLength: filled }),
          ),
        );
        return size;
      }
      await flush();
      await guard(
        client.send(
          new CompleteMultipartUploadCommand({
            Bucket,
            Key,
            UploadId: uploadId,
            MultipartUpload: { Parts: parts },
          }),
        ),
      );
      return size;
    } catch (error) {
      if (uploadId !== undefined) {
        await client
          .send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId }))
          .catch(() => undefined);
      }
      if (!Buffer.isBuffer(content)) content.destroy(error as Error);
      throw error;
    }
  }

  /** The last time an unfinished upload was written to: its start, or its latest part. */
  async function lastTouched(Key: string, UploadId: string, initiated: Date): Promise<Date> {
    let latest = initiated;
    let PartNumberMarker: string | undefined;
    for (;;) {
      const page = await guard(
        client.send(new ListPartsCommand({ Bucket, Key, UploadId, PartNumberMarker })),
      );
      for (const part of page.Parts ?? []) {
        if (part.LastModified && part.LastModified > latest) latest = part.LastModified;
      }
      if (!page.IsTruncated || !page.NextPartNumberMarker) return latest;
      PartNumberMarker = page.NextPartNumberMarker;
    }
  }

  const store: FileStore = {
    async put(content) {
      const key = newKey();
      return { key, size: await write(key, content) };
    },
    async putAt(key, content) {
      if (!isFileKey(key)) throw new Error(`Not a file key: ${key}`);
      try {
        await guard(client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) })));
        if (!Buffer.isBuffer(content)) content.destroy();
        return false;
      } catch (error) {
        if (!isNotFound(error)) {
          if (!Buffer.isBuffer(content)) content.destroy(error as Error);
          throw error;
        }
      }
      await write(key, content);
      return true;
    },
    async open(key) {
      if (!isFileKey(key)) return undefined;
      let answer: { Body?: unknown; ContentLength?: number };
      try {
        answer = await guard(client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) })));
      } catch (error) {
        if (isNotFound(error)) return fallback?.open(key);
        throw error;
      }
      const stream = answer.Body as Readable;
      // The body is a live socket: a reset before the reader attaches its own handlers must not be an
      // uncaught error. Readers still see the error (pipeline, for await).
      stream.on('error', () => undefined);
      return { stream, size: Number(answer.ContentLength ?? 0) };
    },
    async read(key) {
      const file = await store.open(key);
      if (!file) return undefined;
      const parts: Buffer[] = [];
      for await (const part of file.stream as AsyncIterable<Buffer>) parts.push(part);
      return Buffer.concat(parts);
    },
    async remove(key) {
      if (!isFileKey(key)) return;
      // S3 answers a missing key with success too.
      await guard(client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) })));
      await fallback?.remove(key);
    },
    async *keys() {
      let ContinuationToken: string | undefined;
      for (;;) {
        const page = await guard(
          client.send(
            new ListObjectsV2Command({ Bucket, Prefix: settings.prefix || undefined, ContinuationToken }),
          ),
        );
        for (const object of page.Contents ?? []) {
          const key = object.Key?.slice(settings.prefix.length);
          if (key !== undefined && isFileKey(key)) yield key;
        }
        if (!page.IsTruncated || !page.NextContinuationToken) return;
        ContinuationToken = page.NextContinuationToken;
      }
    },
    async removeAbandoned(before) {
      let removed = 0;
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      for (;;) {
        const page = await guard(
          client.send(
            new ListMultipartUploadsCommand({
              Bucket,
              Prefix: settings.prefix || undefined,
              KeyMarker,
              UploadIdMarker,
            }),
          ),
        );
        for (const { Key, UploadId, Initiated } of page.Uploads ?? []) {
          // Only our own keys: another deployment's prefix, or another program's files, are not ours.
          if (!Key || !UploadId || !Initiated || !isFileKey(Key.slice(settings.prefix.length))) continue;
          if (!Key.startsWith(settings.prefix) || Initiated >= before) continue;
          // An upload started long ago may still be sending parts (a slow client): only one whose
          // last part is old too was left by a process that is gone.
          if ((await lastTouched(Key, UploadId, Initiated)) >= before) continue;
          await guard(client.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })));
          removed++;
        }
        if (!page.IsTruncated) return removed;
        KeyMarker = page.NextKeyMarker;
        UploadIdMarker = page.NextUploadIdMarker;
      }
    },
  };
  return store;
}
