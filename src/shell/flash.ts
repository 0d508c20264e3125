/**
 * A message that survives one page load (why a session ended), shown by the login page. It is read
 * without being removed and forgotten once the login page is left or a login is tried: a session that
 * ends may reach the login page twice (react-admin's own navigation, then the HTTP client's reload), and
 * the second must still say why.
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
