// @vitest-environment jsdom
/**
 * Issue 14, item 13: the relative time of a message just posted refreshes like the others. New messages
 * (the thread's data changing) move the thread's clock to now at once, and the 30 s ticks restart from
 * there, so a message written 20 s after the last tick is not measured against that older moment.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { RELATIVE_TIME_REFRESH_MS, useNow } from '../../src/custom/thread/MessageThread.tsx';
import { relativeTime } from '../../common/format.ts';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-22T12:00:00Z'));
});
afterEach(() => vi.useRealTimers());

it('moves to now when the messages change, then ticks every 30 s from there', () => {
  const { result, rerender, unmount } = renderHook(
    ({ data }: { data: unknown }) => useNow(RELATIVE_TIME_REFRESH_MS, data),
    { initialProps: { data: undefined as unknown } },
  );
  const start = result.current.getTime();
  act(() => vi.advanceTimersByTime(20_000));
  expect(result.current.getTime()).toBe(start);

  // A message posted at 12:00:20: the thread reloads, its clock moves to 12:00:20 at once.
  rerender({ data: ['posted'] });
  act(() => vi.advanceTimersByTime(0));
  expect(result.current.getTime()).toBe(start + 20_000);
  expect(relativeTime('2026-11-22T12:00:20Z', result.current, 'en')).toBe('now');

  // The next ticks are 30 s after the change: at 12:01:20 the message is a minute old, like the others.
  act(() => vi.advanceTimersByTime(29_999));
  expect(result.current.getTime()).toBe(start + 20_000);
  act(() => vi.advanceTimersByTime(1));
  expect(result.current.getTime()).toBe(start + 50_000);
  act(() => vi.advanceTimersByTime(30_000));
  expect(relativeTime('2026-11-22T12:00:20Z', result.current, 'en')).toBe('1 minute ago');
  unmount();
});
