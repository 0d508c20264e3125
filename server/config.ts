import { resolve } from 'node:path';

/** Configuration is environment variables only; each has a safe default and a line in the README. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Unset: generated once and kept in DATA_DIR/jwt-secret. */
  jwtSecret?: string;
  smtpUrl?: string;
  seed: 'demo' | 'none';
  logLevel: string;
  accessTokenSeconds: number;
  refreshTokenDays: number;
  /** Subdomain of the tenant served on a bare host (localhost, an IP address). */
  defaultTenant: string;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const seed = env.SEED ?? 'demo';
  if (seed !== 'demo' && seed !== 'none') throw new Error(`SEED must be demo or none, not ${seed}`);
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    seed,
    logLevel: env.LOG_LEVEL ?? 'info',
    accessTokenSeconds: Number(env.ACCESS_TOKEN_SECONDS ?? 900),
    refreshTokenDays: Number(env.REFRESH_TOKEN_DAYS ?? 30),
    defaultTenant: env.DEFAULT_TENANT ?? 'acme',
  };
}
