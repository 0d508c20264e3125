/**
 * A real S3-compatible server for the tests: s3rver on a free loopback port, its objects in a temporary
 * folder, removed on close. `stop` and `start` take it away and bring it back on the same port and
 * folder, as an outage would.
 *
 * s3rver lacks three calls of multipart uploads that the store needs (its router answers them
 * NotImplemented): ListMultipartUploads, ListParts and AbortMultipartUpload. They are added here, in
 * S3's own XML, over s3rver's own upload folders (`<bucket>/._S3rver_uploads/<upload id>/`, holding the
 * key and one file per part), so the store's requests go over HTTP through the SDK as against S3. An
 * upload's start is the time of its `key` file, a part's the time of its file. No paging: the tests
 * keep a handful of uploads.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../server/files/s3-store.ts';

const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** Where s3rver keeps the bucket's objects and uploads. */
  directory: string;
  /** The folder of unfinished multipart uploads, one folder each. */
  uploadsDir: string;
  /** Settings of a store on this server, with `prefix` ('' or ending in '/'). */
  settings(prefix?: string): S3Settings;
  /** Closes the port and every connection: requests are refused. */
  stop(): Promise<void>;
  /** Serves again on the same port and folder. */
  start(): Promise<void>;
  close(): Promise<void>;
}

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
}

type Middleware = (ctx: KoaContext, next: () => Promise<void>) => Promise<void>;

/** S3's answer to an unknown upload id. */
function noSuchUpload(ctx: KoaContext, uploadId: string) {
  ctx.status = 404;
  ctx.body = {
    Error: {
      Code: 'NoSuchUpload',
      Message: 'The specified upload does not exist.',
      UploadId: uploadId,
    },
  };
}

/** ListMultipartUploads, ListParts and AbortMultipartUpload over s3rver's upload folders. */
function multipartCalls(uploadsDir: (bucket: string) => string): Middleware {
  return async (ctx, next) => {
    const [, bucket, ...rest] = ctx.path.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const uploadId = typeof ctx.query.uploadId === 'string' ? ctx.query.uploadId : undefined;
    if (!bucket) return next();
    if (ctx.method === 'GET' && !key && 'uploads' in ctx.query) {
      const prefix = typeof ctx.query.prefix === 'string' ? ctx.query.prefix : '';
      const uploads = [];
      for (const id of await readdir(uploadsDir(bucket)).catch(() => [])) {
        const file = join(uploadsDir(bucket), id, 'key');
        const uploadKey = await readFile(file, 'utf8').catch(() => undefined);
        if (uploadKey === undefined || !uploadKey.startsWith(prefix)) continue;
        const initiated = (await stat(file)).mtime.toISOString();
        uploads.push({ Key: uploadKey, UploadId: id, Initiated: initiated, StorageClass: 'STANDARD' });
      }
      ctx.body = {
        ListMultipartUploadsResult: {
          '@': { xmlns: XMLNS },
          Bucket: bucket,
          KeyMarker: '',
          UploadIdMarker: '',
          Prefix: prefix,
          MaxUploads: 1000,
          IsTruncated: false,
          Upload: uploads,
        },
      };
      return;
    }
    if (!key || uploadId === undefined || !/^[0-9a-f]+$/.test(uploadId)) return next();
    const folder = join(uploadsDir(bucket), uploadId);
    if (ctx.method === 'DELETE') {
      if (!(await stat(folder).catch(() => undefined))) return noSuchUpload(ctx, uploadId);
      await rm(folder, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    if (ctx.method === 'GET') {
      const names = await readdir(folder).catch(() => undefined);
      if (!names) return noSuchUpload(ctx, uploadId);
      const parts = [];
      for (const name of names.filter((n) => /^\d+$/.test(n)).sort((a, b) => Number(a) - Number(b))) {
        const info = await stat(join(folder, name));
        const md5 = await readFile(join(folder, `${name}.md5`), 'utf8').catch(() => '');
        parts.push({
          PartNumber: Number(name),
          LastModified: info.mtime.toISOString(),
          ETag: `"${md5}"`,
          Size: info.size,
        });
      }
      ctx.body = {
        ListPartsResult: {
          '@': { xmlns: XMLNS },
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          PartNumberMarker: 0,
          MaxParts: 1000,
          IsTruncated: false,
          Part: parts,
        },
      };
      return;
    }
    return next();
  };
}

export async function startS3Server(bucket = 'desk-files'): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'sd-s3-'));
  const uploadsOf = (name: string) => join(directory, name, '._S3rver_uploads');
  let port = 0;
  let server: S3rver | undefined;

  async function start(): Promise<void> {
    const s3 = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    // Before the router (the last middleware), which would refuse these calls; after the XML encoder.
    const chain = (s3 as unknown as { middleware: Middleware[] }).middleware;
    chain.splice(chain.length - 1, 0, multipartCalls(uploadsOf));
    const address = (await s3.run()) as AddressInfo;
    port = address.port;
    server = s3;
  }

  async function stop(): Promise<void> {
    const http = (server as unknown as { httpServer?: import('node:http').Server } | undefined)?.httpServer;
    server = undefined;
    if (!http) return;
    const closed = new Promise<void>((resolve) => http.close(() => resolve()));
    // Keep-alive sockets of the SDK would keep the old server answering.
    http.closeAllConnections();
    await closed;
  }

  await start();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    uploadsDir: uploadsOf(bucket),
    settings: (prefix = '') => ({
      bucket,
      endpoint,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      prefix,
    }),
    stop,
    start,
    async close() {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
