// @vitest-environment jsdom
/** SPEC 9: a thread's relative times refresh every 30 s (the clock the thread renders them against). */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { RELATIVE_TIME_REFRESH_MS, useNow } from '../../src/custom/thread/MessageThread.tsx';
import { relativeTime } from '../../common/format.ts';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-22T12:00:00Z'));
});
afterEach(() => vi.useRealTimers());

it('ticks every 30 s, not sooner', () => {
  expect(RELATIVE_TIME_REFRESH_MS).toBe(30_000);
  const { result, unmount } = renderHook(() => useNow());
  const start = result.current.getTime();
  act(() => vi.advanceTimersByTime(29_999));
  expect(result.current.getTime()).toBe(start);
  act(() => vi.advanceTimersByTime(1));
  expect(result.current.getTime()).toBe(start + 30_000);
  // A message of 11:59:10 reads 'now' at first and '1 minute ago' after the tick.
  expect(relativeTime('2026-11-22T11:59:10Z', new Date(start), 'en')).toBe('now');
  act(() => vi.advanceTimersByTime(30_000));
  expect(relativeTime('2026-11-22T11:59:10Z', result.current, 'en')).toBe('1 minute ago');
  unmount();
});
