// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RELOAD_DEBOUNCE_MS, RELOAD_EVENT, debounce, requestReload } from '../../src/dataProvider/reload.ts';
import {
  APP_PORTAL_TOKEN,
  APP_QUOTE_TOKEN,
  APP_USER,
  LOCALE,
  getItem,
  setItem,
} from '../../src/dataProvider/storage.ts';
import { signedInOnTicketsList } from './dataProvider-world.ts';

/**
 * The data provider's helpers beside its calls: the debounced app:reload event a change asks for, and the
 * storage keys, which survive a browser that refuses storage.
 */

beforeEach(signedInOnTicketsList);

describe('reload', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('requestReload dispatches app:reload once per burst, 100 ms after the last request', () => {
    vi.useFakeTimers();
    const listener = vi.fn();
    window.addEventListener(RELOAD_EVENT, listener);
    requestReload();
    vi.advanceTimersByTime(60);
    requestReload();
    requestReload();
    vi.advanceTimersByTime(RELOAD_DEBOUNCE_MS - 1);
    expect(listener).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(listener).toHaveBeenCalledTimes(1);
    requestReload();
    vi.advanceTimersByTime(RELOAD_DEBOUNCE_MS);
    expect(listener).toHaveBeenCalledTimes(2);
    window.removeEventListener(RELOAD_EVENT, listener);
    expect(RELOAD_EVENT).toBe('app:reload');
    expect(RELOAD_DEBOUNCE_MS).toBe(100);
  });

  it('debounce passes the last arguments and can be cancelled', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const debounced = debounce(fn, 50);
    debounced(1);
    debounced(2);
    vi.advanceTimersByTime(50);
    expect(fn).toHaveBeenCalledExactlyOnceWith(2);
    debounced(3);
    debounced.cancel();
    vi.advanceTimersByTime(100);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

describe('storage', () => {
  it('has the spec keys and survives a browser that refuses storage', () => {
    expect([APP_PORTAL_TOKEN, APP_QUOTE_TOKEN, APP_USER, LOCALE]).toEqual([
      'APP_PORTAL_TOKEN',
      'APP_QUOTE_TOKEN',
      'APP_USER',
      'locale',
    ]);
    const spy = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    setItem(LOCALE, 'en');
    expect(getItem(LOCALE)).toBe('en');
    spy.mockRestore();
  });
});
