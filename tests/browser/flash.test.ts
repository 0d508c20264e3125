// @vitest-environment jsdom
/**
 * Why a session ended survives the login page's remounts and the reload that follows (a session that
 * ends reaches the login page by react-admin's navigation and by the HTTP client's reload); leaving
 * the login page for another page forgets it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { forgetFlash, loginPageLeft, peekFlash, setFlash } from '../../src/shell/flash.ts';

const WHY = 'app.errors.logged_in_elsewhere';

describe('the reason a session ended', () => {
  beforeEach(() => {
    forgetFlash();
    setFlash(WHY);
  });

  it('is kept when the login page goes away on a login address of either app', () => {
    loginPageLeft('/login');
    loginPageLeft('/app/login');
    expect(peekFlash()).toBe(WHY);
  });

  it('is forgotten when the login page is left for another page', () => {
    loginPageLeft('/app/forgot-password');
    expect(peekFlash()).toBeUndefined();
    setFlash(WHY);
    loginPageLeft('/tickets');
    expect(peekFlash()).toBeUndefined();
  });
});
