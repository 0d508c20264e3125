/**
 * Issue 40, item 3: an answered request's metric labels are made once per route pattern, status and
 * method, and the same object is handed out after; what they say is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { requestLabels } from '../../server/metrics/metrics.ts';

describe('request metric labels', () => {
  it('say the method, the route pattern and the status', () => {
    expect(requestLabels('GET', '/api/tickets/:id', 200)).toEqual({
      method: 'GET',
      route: '/api/tickets/:id',
      status: '200',
    });
    expect(requestLabels('PROPFIND', undefined, 404)).toEqual({
      method: 'OTHER',
      route: 'unmatched',
      status: '404',
    });
  });

  it('are the same object for the same three, and another for any other', () => {
    const first = requestLabels('GET', '/api/tickets', 200);
    expect(requestLabels('GET', '/api/tickets', 200)).toBe(first);
    expect(requestLabels('GET', '/api/tickets', 422)).not.toBe(first);
    expect(requestLabels('POST', '/api/tickets', 200)).not.toBe(first);
    expect(requestLabels('GET', '/api/companies', 200)).not.toBe(first);
    // Every unknown method is one OTHER: a caller's words cannot grow the cache.
    expect(requestLabels('PROPFIND', '/api/tickets', 200)).toBe(requestLabels('MKCOL', '/api/tickets', 200));
    expect(Object.isFrozen(first)).toBe(true);
  });
});
