/**
 * After login, back to the page asked for, and only to a page of the same app (issue 14, item 3): the
 * login address names it, the login page reads it from there or from react-admin's router state.
 */
import { describe, expect, it } from 'vitest';
import { afterLoginAddress, loginPath, safeReturnPath } from '../../src/shell/returnTo.ts';

describe('safeReturnPath', () => {
  it('takes a path of the app, with its query and hash, and strips the basename of a full path', () => {
    expect(safeReturnPath('/quotes/2', 'portal')).toBe('/quotes/2');
    expect(safeReturnPath('/app/quotes/2?tab=lines#message-4', 'portal')).toBe(
      '/quotes/2?tab=lines#message-4',
    );
    expect(safeReturnPath('/app', 'portal')).toBe('/');
    expect(safeReturnPath('/companies/1', 'backoffice')).toBe('/companies/1');
  });

  it('refuses other hosts, however they are written', () => {
    for (const value of [
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/..//evil.example',
      '/%0a//evil.example'.replace('%0a', '\n'),
      '/\t/evil.example',
      'quotes/2',
      '',
    ]) {
      expect(safeReturnPath(value, 'portal'), value).toBeUndefined();
      expect(safeReturnPath(value, 'backoffice'), value).toBeUndefined();
    }
    expect(safeReturnPath(undefined, 'portal')).toBeUndefined();
    expect(safeReturnPath(42, 'portal')).toBeUndefined();
  });

  it('refuses the other app on this host and the login page itself', () => {
    expect(safeReturnPath('/app/quotes/2', 'backoffice')).toBeUndefined();
    expect(safeReturnPath('/api/auth/logout', 'backoffice')).toBeUndefined();
    expect(safeReturnPath('/login', 'backoffice')).toBeUndefined();
    expect(safeReturnPath('/app/login/guard', 'portal')).toBeUndefined();
  });
});

describe('loginPath', () => {
  it('names the page to return to, readably, and nothing for the home or a foreign address', () => {
    expect(loginPath('portal', '/quotes/2')).toBe('/login?next=/quotes/2');
    expect(loginPath('portal', '/tickets?status=1&page=2')).toBe(
      '/login?next=/tickets%3Fstatus%3D1%26page%3D2',
    );
    expect(loginPath('portal', '/')).toBe('/login');
    expect(loginPath('portal', '//evil.example')).toBe('/login');
    expect(loginPath('backoffice', '/companies/1')).toBe('/login?next=/companies/1');
    expect(loginPath('backoffice')).toBe('/login');
  });
});

describe('afterLoginAddress', () => {
  it('goes to the page in ?next=, inside the app’s basename', () => {
    expect(afterLoginAddress('portal', '?next=/quotes/2', null)).toBe('/app/quotes/2');
    expect(afterLoginAddress('portal', `?next=${encodeURIComponent('/tickets?status=1')}`, null)).toBe(
      '/app/tickets?status=1',
    );
    expect(afterLoginAddress('backoffice', '?next=/companies/1', null)).toBe('/companies/1');
  });

  it('else to the page in react-admin’s router state, else home', () => {
    const state = { nextPathname: '/app/quotes/2', nextSearch: '?x=1' };
    expect(afterLoginAddress('portal', '', state)).toBe('/app/quotes/2?x=1');
    expect(afterLoginAddress('backoffice', '', { nextPathname: '/companies/1' })).toBe('/companies/1');
    expect(afterLoginAddress('portal', '', undefined)).toBe('/app/');
    expect(afterLoginAddress('backoffice', '', undefined)).toBe('/');
  });

  it('never leaves the app: a foreign ?next= goes home', () => {
    expect(afterLoginAddress('portal', '?next=//evil.example', null)).toBe('/app/');
    expect(afterLoginAddress('portal', '?next=https://evil.example', null)).toBe('/app/');
    expect(afterLoginAddress('backoffice', '?next=/\\evil.example', null)).toBe('/');
    expect(afterLoginAddress('backoffice', '?next=/app/tickets', null)).toBe('/');
  });
});
