/**
 * Shared by the S3 file store tests (s3-store-objects, s3-store-app): what the S3-compatible server the
 * tests start (s3rver on loopback, s3-server.ts) holds, read past the store under test.
 */
import { readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateMultipartUploadCommand, ListObjectsV2Command, UploadPartCommand } from '@aws-sdk/client-s3';
import { s3ClientFor } from '../../server/files/s3-store.ts';
import { newKey } from '../../server/files/store.ts';
import type { S3TestServer } from './s3-server.ts';

/** Every object in the bucket, prefix included, as S3 lists it. */
export async function bucketObjects(server: S3TestServer): Promise<string[]> {
  const client = s3ClientFor(server.settings());
  const page = await client.send(new ListObjectsV2Command({ Bucket: server.bucket }));
  return (page.Contents ?? []).map((o) => o.Key!).sort();
}

/** Unfinished multipart uploads the server holds. */
export const openUploads = async (server: S3TestServer) =>
  (await readdir(server.uploadsDir).catch(() => [])).length;

/**
 * An unfinished upload as a process that died mid-upload leaves it: started `startedHoursAgo`, its one
 * part written `partHoursAgo`. Its upload id.
 */
export async function unfinishedUpload(
  server: S3TestServer,
  prefix: string,
  startedHoursAgo: number,
  partHoursAgo = startedHoursAgo,
): Promise<string> {
  const client = s3ClientFor(server.settings(prefix));
  const Key = prefix + newKey();
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: server.bucket, Key }));
  await client.send(
    new UploadPartCommand({ Bucket: server.bucket, Key, UploadId, PartNumber: 1, Body: Buffer.from('half') }),
  );
  const folder = join(server.uploadsDir, UploadId!);
  const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000);
  await utimes(join(folder, 'key'), ago(startedHoursAgo), ago(startedHoursAgo));
  await utimes(join(folder, '1'), ago(partHoursAgo), ago(partHoursAgo));
  return UploadId!;
}
