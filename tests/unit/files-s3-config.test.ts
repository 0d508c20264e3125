/** FILES_STORE=s3 and its FILES_S3_* settings (server/config.ts): defaults, and a clear error per mistake. */
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config.ts';

const s3 = (env: Record<string, string>) =>
  configFromEnv({ FILES_STORE: 's3', FILES_S3_BUCKET: 'desk', ...env });

describe('the S3 file store settings', () => {
  it('needs a bucket, and names the setting when it is missing', () => {
    expect(() => configFromEnv({ FILES_STORE: 's3' })).toThrow(
      'FILES_STORE=s3 needs FILES_S3_BUCKET: the bucket the files are kept in',
    );
    expect(() => configFromEnv({ FILES_STORE: 's3', FILES_S3_BUCKET: '  ' })).toThrow('FILES_S3_BUCKET');
    expect(() => configFromEnv({ FILES_STORE: 'bucket' })).toThrow(
      'FILES_STORE must be local, postgres or s3, not bucket',
    );
  });

  it('defaults to AWS in us-east-1 with the SDK’s credentials and virtual-host addresses', () => {
    expect(s3({}).s3).toEqual({
      bucket: 'desk',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
      prefix: '',
    });
    expect(s3({}).filesStore).toBe('s3');
    // Other stores read no FILES_S3_* setting.
    expect(configFromEnv({ FILES_STORE: 'local', FILES_S3_BUCKET: 'desk' }).s3).toBeUndefined();
  });

  it('uses path-style addresses with an endpoint unless told otherwise', () => {
    const minio = s3({
      FILES_S3_ENDPOINT: 'http://127.0.0.1:9000',
      FILES_S3_REGION: 'eu-west-1',
      FILES_S3_ACCESS_KEY_ID: 'key',
      FILES_S3_SECRET_ACCESS_KEY: 'secret',
    }).s3;
    expect(minio).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      region: 'eu-west-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect(
      s3({ FILES_S3_ENDPOINT: 'https://s3.example.net', FILES_S3_FORCE_PATH_STYLE: 'false' }).s3
        ?.forcePathStyle,
    ).toBe(false);
    expect(s3({ FILES_S3_FORCE_PATH_STYLE: 'true' }).s3?.forcePathStyle).toBe(true);
    expect(() => s3({ FILES_S3_FORCE_PATH_STYLE: 'yes' })).toThrow(
      'FILES_S3_FORCE_PATH_STYLE must be true or false, not yes',
    );
  });

  it('refuses an endpoint that is no web address, and a key without its secret', () => {
    expect(() => s3({ FILES_S3_ENDPOINT: '127.0.0.1:9000' })).toThrow(
      'FILES_S3_ENDPOINT must be an http:// or https:// address, not 127.0.0.1:9000',
    );
    expect(() => s3({ FILES_S3_ACCESS_KEY_ID: 'key' })).toThrow(
      'FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY go together',
    );
    expect(() => s3({ FILES_S3_SECRET_ACCESS_KEY: 'secret' })).toThrow('go together');
  });

  it('ends a prefix in one slash and refuses folders that are empty, dots or odd characters', () => {
    expect(s3({ FILES_S3_PREFIX: 'desk/prod' }).s3?.prefix).toBe('desk/prod/');
    expect(s3({ FILES_S3_PREFIX: '/desk/prod/' }).s3?.prefix).toBe('desk/prod/');
    expect(s3({ FILES_S3_PREFIX: '' }).s3?.prefix).toBe('');
    for (const bad of ['desk//prod', '../desk', 'desk/./prod', 'desk prod', 'désk', 'a'.repeat(201)]) {
      expect(() => s3({ FILES_S3_PREFIX: bad }), bad).toThrow('FILES_S3_PREFIX must be');
    }
  });
});
