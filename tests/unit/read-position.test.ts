import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { configFromEnv } from '../../server/config.ts';
import { END_OF_WAL, parseLsn } from '../../server/db/wal-position.ts';
import { READ_POSITION_COOKIE, readPosition } from '../../server/http/read-position.ts';

describe('WAL positions', () => {
  it('reads a pg_lsn as a number that orders as the log does', () => {
    expect(parseLsn('0/0')).toBe(0n);
    expect(parseLsn('0/3016038')).toBe(0x3016038n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    // The high half outweighs any low half; lower-case hex is the same position.
    expect(parseLsn('1/0')! > parseLsn('0/FFFFFFFF')!).toBe(true);
    expect(parseLsn('a/ff')).toBe(parseLsn('A/FF'));
    expect(parseLsn(END_OF_WAL)).toBe(2n ** 64n - 1n);
  });

  it.each(['', '0', '0/', '/0', '0/0/0', 'G/0', '123456789/0', '0/123456789', ' 0/0', '0/0;', '-1/0'])(
    'is no position: %j',
    (text) => {
      expect(parseLsn(text)).toBeUndefined();
    },
  );
});

describe('the read position a request carries', () => {
  const request = (cookies: Record<string, string>) => ({ cookies }) as unknown as FastifyRequest;

  it('is none without the cookie', () => {
    expect(readPosition(request({}))).toBeUndefined();
    expect(readPosition(request({ other: '0/10' }))).toBeUndefined();
  });

  it('is the cookie’s position', () => {
    expect(readPosition(request({ [READ_POSITION_COOKIE]: '0/3016038' }))).toBe(0x3016038n);
  });

  it('is past every position when the cookie is not one, so the read goes to the primary', () => {
    for (const forged of ['x', '0/0 or 1=1', 'FFFFFFFFF/0']) {
      expect(readPosition(request({ [READ_POSITION_COOKIE]: forged }))).toBe(parseLsn(END_OF_WAL));
    }
  });
});

describe('DATABASE_READ_URL', () => {
  const primary = 'postgres://app@db-primary:5432/desk';

  it('is off by default, with a lag bound of 5 s', () => {
    const config = configFromEnv({ DATABASE_URL: primary });
    expect(config.databaseReadUrl).toBeUndefined();
    expect(config.replicaMaxLagMs).toBe(5000);
  });

  it('takes a standby beside DATABASE_URL, and the lag bound', () => {
    const config = configFromEnv({
      DATABASE_URL: primary,
      DATABASE_READ_URL: 'postgresql://app@db-standby:5432/desk',
      REPLICA_MAX_LAG_MS: '2500',
    });
    expect(config.databaseReadUrl).toBe('postgresql://app@db-standby:5432/desk');
    expect(config.replicaMaxLagMs).toBe(2500);
  });

  it('stops the start without DATABASE_URL: the embedded database has no replica', () => {
    expect(() => configFromEnv({ DATABASE_READ_URL: 'postgres://app@db-standby/desk' })).toThrow(
      /DATABASE_READ_URL needs DATABASE_URL/,
    );
  });

  it.each([
    [{ DATABASE_READ_URL: 'db-standby:5432' }, /DATABASE_READ_URL must be a postgres:\/\/ address/],
    [{ REPLICA_MAX_LAG_MS: '0' }, /REPLICA_MAX_LAG_MS must be a positive whole number/],
    [{ REPLICA_MAX_LAG_MS: '5s' }, /REPLICA_MAX_LAG_MS must be a positive whole number/],
  ])('refuses %j', (env, message) => {
    expect(() => configFromEnv({ DATABASE_URL: primary, ...env })).toThrow(message);
  });
});
