/**
 * The worker loop of the mail outbox and the export jobs (server/system/wake-loop.ts): it drains when
 * woken and every poll, and a retry put off to a known moment is looked for at that moment, not at the
 * next poll (a refused mail retried after MAIL_RETRY_BASE_MS even when MAIL_POLL_MS is longer).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WakeLoop } from '../../server/system/wake-loop.ts';

describe('WakeLoop', () => {
  let drains: number;
  let hold: (() => void) | undefined;
  let loop: WakeLoop;

  beforeEach(() => {
    vi.useFakeTimers();
    drains = 0;
    hold = undefined;
    loop = new WakeLoop(
      async () => {
        drains++;
        if (drains === 1) return;
        // Drains after the first wait until the test lets them end, so it can act during one.
        await new Promise<void>((resolve) => (hold = resolve));
      },
      5_000,
      () => undefined,
    );
  });

  afterEach(async () => {
    hold?.();
    await loop.stop();
    vi.useRealTimers();
  });

  /** Lets `ms` pass and the drains it started settle; the held one stays held. */
  const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms);

  it('drains at start and then once per poll', async () => {
    loop.start();
    await pass(0);
    expect(drains).toBe(1);
    await pass(4_999);
    expect(drains).toBe(1);
    await pass(1);
    expect(drains).toBe(2);
  });

  it('looks when put-off work falls due, before the poll', async () => {
    loop.start();
    await pass(0);
    loop.wakeIn(100);
    await pass(99);
    expect(drains).toBe(1);
    await pass(1);
    expect(drains).toBe(2);
  });

  it('keeps the sooner of a poll and a later wakeIn', async () => {
    loop.start();
    await pass(0);
    loop.wakeIn(60_000);
    await pass(5_000);
    expect(drains).toBe(2);
  });

  it('remembers a wakeIn asked during a drain and looks then, after the drain', async () => {
    loop.start();
    await pass(0);
    loop.wake();
    await pass(0);
    expect(drains).toBe(2);
    // Asked while the second drain runs: due 200 ms from now.
    loop.wakeIn(200);
    await pass(50);
    hold!();
    hold = undefined;
    await pass(149);
    expect(drains).toBe(2);
    await pass(1);
    expect(drains).toBe(3);
  });

  it('asks for nothing once stopped', async () => {
    loop.start();
    await pass(0);
    await loop.stop();
    loop.wakeIn(10);
    await pass(10_000);
    expect(drains).toBe(1);
  });
});
