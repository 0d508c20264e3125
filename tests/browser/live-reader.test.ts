// @vitest-environment jsdom
/**
 * The apps' reader of GET /api/events (src/live/events.ts) on the answers of issue 31, item 7: `reset`
 * (more was missed than the server replays) reloads every screen, and a 429's Retry-After is waited
 * out before the reader connects again.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLiveEvents } from '../../src/live/events.ts';
import { RELOAD_DEBOUNCE_MS, RELOAD_EVENT } from '../../src/dataProvider/reload.ts';

/** A stream that sends `text` and then stays open (as the server's does). */
function openStream(text: string): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

const options = { token: () => 'token', refresh: () => Promise.resolve() };

describe('the live events reader', () => {
  let stop: (() => void) | undefined;
  afterEach(() => {
    stop?.();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('asks every screen to reload when the stream says reset', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let reloads = 0;
    const count = () => reloads++;
    window.addEventListener(RELOAD_EVENT, count);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        openStream(
          'event: ready\ndata: {}\n\nevent: reset\ndata: {}\n\n' +
            'id: 7\nevent: record\ndata: {"resource":"tickets","id":1,"action":"changed"}\n\n',
        ),
      ),
    );
    const seen = new Promise<void>((resolve) =>
      window.addEventListener('app:live', (e) => {
        if ((e as CustomEvent).detail.event === 'record') resolve();
      }),
    );
    stop = startLiveEvents(options);
    await seen;
    // The app's reload comes RELOAD_DEBOUNCE_MS after the last request for one.
    await vi.advanceTimersByTimeAsync(RELOAD_DEBOUNCE_MS);
    window.removeEventListener(RELOAD_EVENT, count);
    expect(reloads).toBe(1);
  });

  it("waits out a 429's Retry-After before it connects again", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fetch = vi.fn(async () =>
      fetch.mock.calls.length === 1
        ? new Response('{"message":"later"}', { status: 429, headers: { 'retry-after': '20' } })
        : openStream('event: ready\ndata: {}\n\n'),
    );
    vi.stubGlobal('fetch', fetch);
    stop = startLiveEvents(options);
    await vi.advanceTimersByTimeAsync(19_900);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
