/**
 * The file store's settings (FILES_STORE, FILES_S3_*), read and checked at start like every setting
 * (server/config.ts): a wrong one stops the server with a line that says what to set.
 */
import type { S3Settings } from './s3-store.ts';

/** The kinds of file store (server/files/store.ts). */
export type FilesStoreKind = 'local' | 'postgres' | 's3';

/**
 * FILES_STORE: `local` (DATA_DIR/files), `postgres` (chunks in the database) or `s3` (a bucket, FILES_S3_*).
 * Unset: `postgres` with a DATABASE_URL, where several instances may share the database but no disk;
 * `local` for embedded PGlite.
 */
export function filesStore(value: string | undefined, databaseUrl: string | undefined): FilesStoreKind {
  const text = value?.trim() ?? '';
  if (text === '') return databaseUrl ? 'postgres' : 'local';
  if (text !== 'local' && text !== 'postgres' && text !== 's3')
    throw new Error(`FILES_STORE must be local, postgres or s3, not ${text}`);
  return text;
}

/**
 * FILES_S3_*: the bucket is required; the endpoint only for an S3-compatible server (not AWS), which
 * then gets path-style addresses unless FILES_S3_FORCE_PATH_STYLE=false; keys as a pair or not at all
 * (the SDK's own chain: environment, profile, instance role).
 */
export function s3Settings(env: NodeJS.ProcessEnv): S3Settings {
  const bucket = env.FILES_S3_BUCKET?.trim() ?? '';
  if (bucket === '')
    throw new Error('FILES_STORE=s3 needs FILES_S3_BUCKET: the bucket the files are kept in');
  const endpoint = env.FILES_S3_ENDPOINT?.trim() || undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^\s/]+/.test(endpoint))
    throw new Error(`FILES_S3_ENDPOINT must be an http:// or https:// address, not ${endpoint}`);
  const accessKeyId = env.FILES_S3_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.FILES_S3_SECRET_ACCESS_KEY || undefined;
  if (!accessKeyId !== !secretAccessKey)
    throw new Error(
      'FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY go together: set both, or neither to use the SDK’s default credentials',
    );
  const pathStyle = env.FILES_S3_FORCE_PATH_STYLE?.trim() ?? '';
  if (pathStyle !== '' && pathStyle !== 'true' && pathStyle !== 'false')
    throw new Error(`FILES_S3_FORCE_PATH_STYLE must be true or false, not ${pathStyle}`);
  return {
    bucket,
    endpoint,
    region: env.FILES_S3_REGION?.trim() || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    forcePathStyle: pathStyle === '' ? endpoint !== undefined : pathStyle === 'true',
    prefix: s3Prefix(env.FILES_S3_PREFIX),
  };
}

/** FILES_S3_PREFIX as put before every key: `desk/prod` becomes `desk/prod/`; S3's safe characters only. */
function s3Prefix(value: string | undefined): string {
  const text = (value ?? '').trim().replace(/^\/+|\/+$/g, '');
  if (text === '') return '';
  if (text.length > 200 || !/^[A-Za-z0-9!_.*'()/-]+$/.test(text) || /\/\/|(^|\/)\.\.?(\/|$)/.test(text))
    throw new Error(
      `FILES_S3_PREFIX must be at most 200 letters, digits and !_.*'()-/ without empty or dot folders, not ${value}`,
    );
  return `${text}/`;
}
