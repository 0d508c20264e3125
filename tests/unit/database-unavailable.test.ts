/**
 * What counts as "the database is away" (503 with Retry-After) and what stays an error of the request
 * (500): the outage test meets only some of these, as the restart happens to produce them.
 */
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../server/db/unavailable.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    [
      'admin_shutdown (pg_ctl stop)',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    ['crash_shutdown', withCode('57P02')],
    ['cannot_connect_now (starting up)', withCode('57P03', 'the database system is starting up')],
    ['a connection exception (class 08)', withCode('08006')],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout of the pool', new Error('timeout exceeded when trying to connect')],
    ['a cause that is one of these', new Error('query failed', { cause: withCode('ECONNREFUSED') })],
  ])('%s: yes', (_, error) => expect(isDatabaseUnavailable(error)).toBe(true));

  it.each([
    ['a syntax error', withCode('42601', 'syntax error at or near "x"')],
    ['a unique violation', withCode('23505')],
    [
      'a statement timeout (query_canceled)',
      withCode('57014', 'canceling statement due to statement timeout'),
    ],
    ['a plain error', new Error('Cannot read properties of undefined')],
    ['a string', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s: no', (_, error) => expect(isDatabaseUnavailable(error)).toBe(false));
});
