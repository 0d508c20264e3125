import { isIP } from 'node:net';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { S3Settings } from './files/s3-store.ts';
import { filesStore, s3Settings, type FilesStoreKind } from './files/store-settings.ts';
import { defaultHashingLimits } from './auth/hashing-queue.ts';
import { IDLE_TIMEOUT_MS, POOL_MIN } from './db/pool-settings.ts';
import { webhookSettings, type WebhookSettings } from './resources/webhooks/settings.ts';

/** Configuration is environment variables only; each has a safe default and a line in docs/operations.md. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL: a direct connection (no transaction-mode pooler) for LISTEN; unset: DATABASE_URL. */
  databaseListenUrl?: string;
  /** PostgreSQL: a streaming hot standby for list and detail reads (DATABASE_READ_URL); unset: none. */
  databaseReadUrl?: string;
  /** The standby's replay lag past which reads go to the primary, in ms (REPLICA_MAX_LAG_MS, 5000). */
  replicaMaxLagMs: number;
  /** Where files are kept (FILES_STORE): `postgres` by default with DATABASE_URL, else `local`. */
  filesStore: FilesStoreKind;
  /** The bucket of FILES_STORE=s3 (FILES_S3_*); unset with any other store. */
  s3?: S3Settings;
  /** Unset: generated once and kept in DATA_DIR/jwt-secret. */
  jwtSecret?: string;
  smtpUrl?: string;
  /** Sender of outgoing mail. */
  mailFrom: string;
  /** Origin of links in e-mails and of the SSO redirect URI; unset: the request's protocol and host. */
  publicUrl?: string;
  passwordMinLength: number;
  msgraph: MsGraphConfig;
  /**
   * OpenID issuers (sso-providers) on loopback or private addresses, or over plain http, are refused unless
   * SSO_ALLOW_PRIVATE_ISSUERS=true: a tenant's admin must not make the server fetch inside its network.
   */
  ssoAllowPrivateIssuers?: boolean;
  seed: 'demo' | 'none';
  logLevel: string;
  accessTokenSeconds: number;
  refreshTokenDays: number;
  /** Subdomain of the tenant served on a bare host (localhost, an IP address). */
  defaultTenant: string;
  /** Largest attachment accepted, in bytes (ATTACHMENT_MAX_BYTES, default 20 MB). */
  attachmentMaxBytes: number;
  /** PostgreSQL: the longest one statement may run, in ms (STATEMENT_TIMEOUT_MS, default 5000); 0: no limit. */
  statementTimeoutMs: number;
  /** Fastify's `trustProxy` (TRUST_PROXY): which X-Forwarded-* headers to believe; false: none. */
  trustProxy: boolean | number | string[];
  /** PostgreSQL connections this instance may hold (DATABASE_POOL_SIZE, default 10, at least 2). */
  databasePoolSize: number;
  /** ms an unused PostgreSQL connection stays open (DATABASE_IDLE_TIMEOUT_MS, default 5 minutes); 0: always. */
  databaseIdleTimeoutMs: number;
  /** Connections of the pool never closed for idling (DATABASE_POOL_MIN, default 2, at most the pool size). */
  databasePoolMin: number;
  /** After SIGTERM: ms the instance answers not-ready yet serves on, so a balancer notices (SHUTDOWN_DRAIN_MS, default 5000). */
  shutdownDrainMs: number;
  /**
   * After the drain: ms that requests in flight may take to finish before every connection still open
   * is cut (SHUTDOWN_CLOSE_MS, default 10000), so a client holding a connection cannot keep the
   * process alive.
   */
  shutdownCloseMs: number;
  /**
   * How long a client may hold a connection without progress (server/http/timeouts.ts): its request
   * headers must be complete within `httpHeadersTimeoutMs` (HTTP_HEADERS_TIMEOUT_MS, 10000) and the whole
   * request within `httpRequestTimeoutMs` (HTTP_REQUEST_TIMEOUT_MS, 300000; 0: no limit); a connection
   * between requests is closed after `httpKeepAliveTimeoutMs` (HTTP_KEEP_ALIVE_TIMEOUT_MS, 10000), and
   * one on which nothing moves either way after `httpIdleTimeoutMs` (HTTP_IDLE_TIMEOUT_MS, 60000; 0: never).
   */
  httpHeadersTimeoutMs: number;
  httpRequestTimeoutMs: number;
  httpKeepAliveTimeoutMs: number;
  httpIdleTimeoutMs: number;
  /** Bearer token of GET /api/metrics (METRICS_TOKEN); unset: the route answers 404. */
  metricsToken?: string;
  /** The `instance_id` label on every metric (METRICS_INSTANCE); unset: hostname and process id. */
  metricsInstance: string;
  /** Live event streams: ms between heartbeats, each also checking the token (LIVE_HEARTBEAT_MS, 20000). */
  liveHeartbeatMs: number;
  /** Ms between looks for deadlines an hour away or passed (DEADLINE_CHECK_MS, 60000; 0: off). */
  deadlineCheckMs: number;
  /** The mail outbox: ms between looks for due mail (MAIL_POLL_MS, default 5000). */
  mailPollMs: number;
  /** How long a claimed mail is this instance's before another may take it (MAIL_LEASE_MS, 10 min). */
  mailLeaseMs: number;
  /** Delay before the first retry (MAIL_RETRY_BASE_MS, 1 min); each next one 4 times longer. */
  mailRetryBaseMs: number;
  /** Longest delay between retries (MAIL_RETRY_MAX_MS, 1 h). */
  mailRetryMaxMs: number;
  /** Attempts before a mail is given up (MAIL_MAX_ATTEMPTS, 8). */
  mailMaxAttempts: number;
  /**
   * Days a given-up mail keeps its body, and so the links in it, for "Try again"
   * (MAIL_KEEP_GIVEN_UP_DAYS, 30: as long as the longest link a mail carries, a quote's).
   */
  mailKeepGivenUpDays: number;
  /** Incoming mail: ms between fetches of a working mailbox (MAIL_FETCH_MS, default 60000); 0: no fetching. */
  mailFetchMs: number;
  /** Incoming mail: longest delay before a failing mailbox is tried again (MAIL_FETCH_RETRY_MAX_MS, 1 h). */
  mailFetchRetryMaxMs: number;
  /** Incoming mail: the files kept of one mail; the others are named as not kept (MAIL_MAX_ATTACHMENTS, 20). */
  mailMaxAttachments: number;
  /** Key of the mailbox passwords (MAILBOX_KEY); unset: a random key kept in the database. */
  mailboxKey?: string;
  /** DNS servers asked for DKIM keys and DMARC records of incoming mail (MAIL_DNS_SERVERS); unset: the system's. */
  mailDnsServers?: string[];
  /**
   * Password hashing (server/auth/password-hashing.ts): argon2 jobs at once (PASSWORD_HASH_CONCURRENCY,
   * default one less than the cores, 1 to 3) and waiting per lane (PASSWORD_HASH_QUEUE, 16).
   */
  passwordHashing: { concurrency: number; queue: number };
  /** Failed logins a tenant takes per minute before unknown devices wait (LOGIN_FAILURES_PER_MINUTE, 30; 0: off). */
  loginFailuresPerMinute: number;
  /** Calls one API token may make per minute on one instance (API_TOKEN_REQUESTS_PER_MINUTE, 600; 0: off). */
  apiTokenRequestsPerMinute: number;
  /** Webhooks (issue 38, item 4): WEBHOOKS_ALLOW_PRIVATE and WEBHOOK_* (server/resources/webhooks/settings.ts). */
  webhooks: WebhookSettings;
}

/** Microsoft single sign-on for the portal; enabled when `clientId` is set. */
export interface MsGraphConfig {
  clientId?: string;
  clientSecret?: string;
  tenant: string;
  authorizeUrl: string;
  tokenUrl: string;
  meUrl: string;
  /** Unset: `<public origin>/app/msgraph/code`. */
  redirectUri?: string;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const seed = env.SEED ?? 'demo';
  if (seed !== 'demo' && seed !== 'none') throw new Error(`SEED must be demo or none, not ${seed}`);
  const databaseUrl = env.DATABASE_URL || undefined;
  const msTenant = encodeURIComponent(env.MSGRAPH_TENANT || 'common');
  const files = filesStore(env.FILES_STORE, databaseUrl);
  const liveHeartbeatMs = Math.max(100, wholeNumber(env.LIVE_HEARTBEAT_MS, 'LIVE_HEARTBEAT_MS') ?? 20_000);
  return {
    port: Number(env.PORT ?? 3000),
    // The demo's accounts share one known password: a demo listens on this machine only (issue 32).
    host: env.HOST || (seed === 'demo' ? '127.0.0.1' : '0.0.0.0'),
    dataDir: resolve(env.DATA_DIR ?? './data'),
    databaseUrl,
    databaseListenUrl: env.DATABASE_LISTEN_URL || undefined,
    databaseReadUrl: readUrl(env.DATABASE_READ_URL, databaseUrl),
    replicaMaxLagMs: wholeNumber(env.REPLICA_MAX_LAG_MS, 'REPLICA_MAX_LAG_MS') ?? 5000,
    filesStore: files,
    s3: files === 's3' ? s3Settings(env) : undefined,
    jwtSecret: env.JWT_SECRET || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Service Desk <no-reply@localhost>',
    publicUrl: env.PUBLIC_URL?.replace(/\/+$/, '') || undefined,
    passwordMinLength: 8,
    msgraph: {
      clientId: env.MSGRAPH_CLIENT_ID || undefined,
      clientSecret: env.MSGRAPH_CLIENT_SECRET || undefined,
      tenant: msTenant,
      authorizeUrl:
        env.MSGRAPH_AUTHORIZE_URL || `https://login.microsoftonline.com/${msTenant}/oauth2/v2.0/authorize`,
      tokenUrl: env.MSGRAPH_TOKEN_URL || `https://login.microsoftonline.com/${msTenant}/oauth2/v2.0/token`,
      meUrl: env.MSGRAPH_ME_URL || 'https://graph.microsoft.com/v1.0/me',
      redirectUri: env.MSGRAPH_REDIRECT_URI || undefined,
    },
    ssoAllowPrivateIssuers: env.SSO_ALLOW_PRIVATE_ISSUERS === 'true',
    seed,
    logLevel: env.LOG_LEVEL ?? 'info',
    accessTokenSeconds: Number(env.ACCESS_TOKEN_SECONDS ?? 900),
    refreshTokenDays: Number(env.REFRESH_TOKEN_DAYS ?? 30),
    defaultTenant: env.DEFAULT_TENANT ?? 'acme',
    attachmentMaxBytes: positiveInteger(env.ATTACHMENT_MAX_BYTES, 'ATTACHMENT_MAX_BYTES') ?? 20 * 1024 * 1024,
    statementTimeoutMs: milliseconds(env.STATEMENT_TIMEOUT_MS, 'STATEMENT_TIMEOUT_MS') ?? 5000,
    trustProxy: trustProxy(env.TRUST_PROXY),
    databasePoolSize: poolSize(env.DATABASE_POOL_SIZE),
    databaseIdleTimeoutMs:
      milliseconds(env.DATABASE_IDLE_TIMEOUT_MS, 'DATABASE_IDLE_TIMEOUT_MS') ?? IDLE_TIMEOUT_MS,
    databasePoolMin: poolMin(env.DATABASE_POOL_MIN),
    shutdownDrainMs: milliseconds(env.SHUTDOWN_DRAIN_MS, 'SHUTDOWN_DRAIN_MS') ?? 5000,
    shutdownCloseMs: milliseconds(env.SHUTDOWN_CLOSE_MS, 'SHUTDOWN_CLOSE_MS') ?? 10_000,
    ...httpTimeouts(env, liveHeartbeatMs),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    metricsInstance: env.METRICS_INSTANCE?.trim() || `${hostname()}:${process.pid}`,
    liveHeartbeatMs,
    deadlineCheckMs: milliseconds(env.DEADLINE_CHECK_MS, 'DEADLINE_CHECK_MS') ?? 60_000,
    mailPollMs: wholeNumber(env.MAIL_POLL_MS, 'MAIL_POLL_MS') ?? 5000,
    mailLeaseMs: wholeNumber(env.MAIL_LEASE_MS, 'MAIL_LEASE_MS') ?? 10 * 60_000,
    mailRetryBaseMs: wholeNumber(env.MAIL_RETRY_BASE_MS, 'MAIL_RETRY_BASE_MS') ?? 60_000,
    mailRetryMaxMs: wholeNumber(env.MAIL_RETRY_MAX_MS, 'MAIL_RETRY_MAX_MS') ?? 60 * 60_000,
    mailMaxAttempts: wholeNumber(env.MAIL_MAX_ATTEMPTS, 'MAIL_MAX_ATTEMPTS') ?? 8,
    mailKeepGivenUpDays: wholeNumber(env.MAIL_KEEP_GIVEN_UP_DAYS, 'MAIL_KEEP_GIVEN_UP_DAYS') ?? 30,
    // 0 is documented as "this instance fetches nothing" (MailFetcher.start): milliseconds, not wholeNumber.
    mailFetchMs: milliseconds(env.MAIL_FETCH_MS, 'MAIL_FETCH_MS') ?? 60_000,
    mailFetchRetryMaxMs: wholeNumber(env.MAIL_FETCH_RETRY_MAX_MS, 'MAIL_FETCH_RETRY_MAX_MS') ?? 60 * 60_000,
    mailMaxAttachments: wholeNumber(env.MAIL_MAX_ATTACHMENTS, 'MAIL_MAX_ATTACHMENTS') ?? 20,
    mailboxKey: env.MAILBOX_KEY || undefined,
    mailDnsServers: dnsServers(env.MAIL_DNS_SERVERS),
    passwordHashing: passwordHashing(env),
    loginFailuresPerMinute: count(env.LOGIN_FAILURES_PER_MINUTE, 'LOGIN_FAILURES_PER_MINUTE') ?? 30,
    apiTokenRequestsPerMinute:
      count(env.API_TOKEN_REQUESTS_PER_MINUTE, 'API_TOKEN_REQUESTS_PER_MINUTE') ?? 600,
    webhooks: webhookSettings(env),
  };
}

/** PASSWORD_HASH_CONCURRENCY (1 to 64) and PASSWORD_HASH_QUEUE (0 to 10000); unset: by the cores. */
function passwordHashing(env: NodeJS.ProcessEnv): Config['passwordHashing'] {
  const defaults = defaultHashingLimits();
  const concurrency = wholeNumber(env.PASSWORD_HASH_CONCURRENCY, 'PASSWORD_HASH_CONCURRENCY');
  if (concurrency !== undefined && concurrency > 64)
    throw new Error(`PASSWORD_HASH_CONCURRENCY must be a whole number from 1 to 64, not ${concurrency}`);
  const queue = count(env.PASSWORD_HASH_QUEUE, 'PASSWORD_HASH_QUEUE');
  if (queue !== undefined && queue > 10_000)
    throw new Error(`PASSWORD_HASH_QUEUE must be a whole number from 0 to 10000, not ${queue}`);
  return { concurrency: concurrency ?? defaults.concurrency, queue: queue ?? defaults.queue };
}

/** A whole number, 0 allowed. */
function count(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,9}$/.test(value)) throw new Error(`${name} must be a whole number, not ${value}`);
  return Number(value);
}

/**
 * DATABASE_READ_URL: a standby of DATABASE_URL's server. The embedded database has no replica, and
 * reads sent elsewhere would not see its writes: set alone it stops the server at start.
 */
function readUrl(value: string | undefined, databaseUrl: string | undefined): string | undefined {
  const text = value?.trim() ?? '';
  if (text === '') return undefined;
  if (!databaseUrl)
    throw new Error(
      'DATABASE_READ_URL needs DATABASE_URL: the embedded database (PGlite) has no read replica',
    );
  if (!/^postgres(ql)?:\/\//.test(text))
    throw new Error('DATABASE_READ_URL must be a postgres:// address of a hot standby');
  return text;
}

function positiveInteger(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[1-9]\d*$/.test(value))
    throw new Error(`${name} must be a positive whole number of bytes, not ${value}`);
  return Number(value);
}

/**
 * MAIL_DNS_SERVERS: `ip`, `ip:port` or `[ipv6]:port`, comma-separated (what node's resolver takes); a
 * name or anything else stops the server at start, since it would leave every sender unverified.
 */
function dnsServers(value: string | undefined): string[] | undefined {
  const entries = (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return undefined;
  for (const entry of entries) {
    const bracketed = /^\[([^\]]+)\]:(\d{1,5})$/.exec(entry);
    const withPort = /^([^:]+):(\d{1,5})$/.exec(entry);
    const host = bracketed?.[1] ?? withPort?.[1] ?? entry;
    const port = Number(bracketed?.[2] ?? withPort?.[2] ?? 53);
    if (!isIP(host) || port < 1 || port > 65535)
      throw new Error(`MAIL_DNS_SERVERS must list IP addresses (ip or ip:port), not ${entry}`);
  }
  return entries;
}

function wholeNumber(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new Error(`${name} must be a positive whole number, not ${value}`);
  return Number(value);
}

type HttpTimeouts = Pick<
  Config,
  'httpHeadersTimeoutMs' | 'httpRequestTimeoutMs' | 'httpKeepAliveTimeoutMs' | 'httpIdleTimeoutMs'
>;

/**
 * HTTP_*_TIMEOUT_MS. The headers' limit must fit in the request's (Node refuses it otherwise), and the idle
 * limit must exceed LIVE_HEARTBEAT_MS: a heartbeat is what keeps an event stream from looking idle.
 */
function httpTimeouts(env: NodeJS.ProcessEnv, liveHeartbeatMs: number): HttpTimeouts {
  const timeouts = {
    httpHeadersTimeoutMs: wholeNumber(env.HTTP_HEADERS_TIMEOUT_MS, 'HTTP_HEADERS_TIMEOUT_MS') ?? 10_000,
    httpRequestTimeoutMs: milliseconds(env.HTTP_REQUEST_TIMEOUT_MS, 'HTTP_REQUEST_TIMEOUT_MS') ?? 300_000,
    httpKeepAliveTimeoutMs:
      wholeNumber(env.HTTP_KEEP_ALIVE_TIMEOUT_MS, 'HTTP_KEEP_ALIVE_TIMEOUT_MS') ?? 10_000,
    httpIdleTimeoutMs: milliseconds(env.HTTP_IDLE_TIMEOUT_MS, 'HTTP_IDLE_TIMEOUT_MS') ?? 60_000,
  };
  if (timeouts.httpRequestTimeoutMs > 0 && timeouts.httpRequestTimeoutMs < timeouts.httpHeadersTimeoutMs)
    throw new Error(
      `HTTP_REQUEST_TIMEOUT_MS (${timeouts.httpRequestTimeoutMs}) must be at least HTTP_HEADERS_TIMEOUT_MS (${timeouts.httpHeadersTimeoutMs}), or 0`,
    );
  if (timeouts.httpIdleTimeoutMs > 0 && timeouts.httpIdleTimeoutMs <= liveHeartbeatMs)
    throw new Error(
      `HTTP_IDLE_TIMEOUT_MS (${timeouts.httpIdleTimeoutMs}) must be longer than LIVE_HEARTBEAT_MS (${liveHeartbeatMs}), or 0: event streams would be cut between heartbeats`,
    );
  return timeouts;
}

/**
 * DATABASE_POOL_SIZE: at least 2, because start-up holds its lock on one connection while it migrates
 * on another (db/startup-lock.ts).
 */
function poolSize(value: string | undefined): number {
  if (value === undefined || value === '') return 10;
  if (!/^\d+$/.test(value) || Number(value) < 2 || Number(value) > 1000)
    throw new Error(`DATABASE_POOL_SIZE must be a whole number from 2 to 1000, not ${value}`);
  return Number(value);
}

/** DATABASE_POOL_MIN: 0 keeps none (every idle connection closes after DATABASE_IDLE_TIMEOUT_MS). */
function poolMin(value: string | undefined): number {
  if (value === undefined || value === '') return POOL_MIN;
  if (!/^\d+$/.test(value) || Number(value) > 1000)
    throw new Error(`DATABASE_POOL_MIN must be a whole number from 0 to 1000, not ${value}`);
  return Number(value);
}

function milliseconds(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value))
    throw new Error(`${name} must be a whole number of milliseconds (0: off), not ${value}`);
  return Number(value);
}

/** A guessable scrape token would open the metrics to anyone who tries a few: at least 16 characters. */
function metricsToken(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length < 16 || /\s/.test(value))
    throw new Error(
      'METRICS_TOKEN must be at least 16 characters without spaces (e.g. openssl rand -hex 24)',
    );
  return value;
}

/**
 * TRUST_PROXY as Fastify's `trustProxy` takes it: `true` (any proxy), a number of hops, or addresses
 * and CIDRs separated by commas. Unset or `false`: the socket's address is the client's, and a forged
 * X-Forwarded-For cannot dodge the per-address limits.
 */
function trustProxy(value: string | undefined): boolean | number | string[] {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
