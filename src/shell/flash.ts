/**
 * A message that survives one page load (why a session ended), shown by the login page. It is read
 * without being removed and forgotten once the login page is left or a login is tried: a session that
 * ends may reach the login page twice or more (react-admin's own navigations, then the HTTP client's
 * reload), and the last must still say why.
 */
const KEY = 'app.flash';

export function setFlash(message: string): void {
  try {
    sessionStorage.setItem(KEY, message);
  } catch {
    /* storage disabled: the login page simply shows no reason */
  }
}

export function peekFlash(): string | undefined {
  try {
    return sessionStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function forgetFlash(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* nothing stored */
  }
}

/** A login address of either app ('/login', '/app/login'), with or without its query. */
const LOGIN_PATH = /\/login$/;

/**
 * The login page went away. Only a move to another page (the password reset, a login) forgets the
 * reason: a login page that react-admin mounts again on a login address, or that the reload replaces,
 * keeps it, or the page the user finally sees would not say why the session ended.
 */
export function loginPageLeft(pathname: string): void {
  if (!LOGIN_PATH.test(pathname)) forgetFlash();
}
