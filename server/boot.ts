import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import type { Registry } from './schema/registry.ts';
import { migrateToLatest } from './db/migrate.ts';
import { syncPermissions } from './db/seed/permissions.ts';
import { seedDemo } from './db/seed/demo.ts';
import type { FileStore } from './files/store.ts';
import { hashOnce } from './auth/password-hashing.ts';
import { DatabaseKeyRing, ensureKey, staticKeyRing, type KeyRing } from './db/signing-keys.ts';

export const DEMO_PASSWORD = 'demo';

/**
 * Migrate, register the schemas' permission names, and fill an empty database with demo data (its
 * attachments' files written to `files`).
 */
export async function prepareDatabase(
  db: Db,
  registry: Registry,
  seed: Config['seed'],
  schema?: string,
  files?: FileStore,
): Promise<{ seeded: boolean }> {
  await migrateToLatest(db, schema);
  await syncPermissions(db, registry);
  if (seed !== 'demo') return { seeded: false };
  const { count } = await db
    .selectFrom('tenants')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  if (Number(count) > 0) return { seeded: false };
  await seedDemo(db, registry, { passwordHash: await hashOnce(DEMO_PASSWORD), files });
  await syncPermissions(db, registry);
  return { seeded: true };
}

/** The name of the access tokens' key in signing_keys. */
export const JWT_KEY_NAME = 'jwt';

/**
 * The keys access tokens are signed with: JWT_SECRET when set; else, on PostgreSQL, the `jwt` keys in
 * the database, made by whichever instance starts first, so instances accept each other's tokens with
 * no shared setting; else (the embedded database, one process) the secret kept in DATA_DIR.
 */
export async function jwtKeys(config: Config, db: Db, onPostgres: boolean): Promise<KeyRing> {
  if (config.jwtSecret) return staticKeyRing(config.jwtSecret);
  if (!onPostgres) return staticKeyRing(jwtSecret(config));
  await ensureKey(db, JWT_KEY_NAME);
  return new DatabaseKeyRing(db, JWT_KEY_NAME);
}

/** JWT_SECRET, or one generated on first start and kept in DATA_DIR so tokens survive a restart. */
export function jwtSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = join(config.dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
