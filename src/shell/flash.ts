/** A message that survives one page load (why a session ended), shown and forgotten by the login page. */
const KEY = 'app.flash';

export function setFlash(message: string): void {
  try {
    sessionStorage.setItem(KEY, message);
  } catch {
    /* storage disabled: the login page simply shows no reason */
  }
}

export function takeFlash(): string | undefined {
  try {
    const message = sessionStorage.getItem(KEY) ?? undefined;
    sessionStorage.removeItem(KEY);
    return message;
  } catch {
    return undefined;
  }
}
