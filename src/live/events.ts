/**
 * The apps' reader of GET /api/events (issue 19, item 4). EventSource cannot send the Authorization
 * header, and the apps keep their access token in localStorage, not a cookie: the stream is read with
 * fetch, the token in the header as every other call sends it, so it never travels in a URL
 * (docs/security.md). Each event is handed to the screens as a window event (`onLive`).
 *
 * The server ends a stream when the token expires or the session ends; the reader then connects
 * again, sending the last event id it saw (`Last-Event-ID`), so nothing in between is missed. A 401
 * asks the app to refresh the token (`refresh`); when that fails the session is over and the reader
 * stops. Other failures (the server restarting, a network cut) are tried again after a growing delay,
 * and never sooner than a 429's or 503's Retry-After.
 *
 * `reset` says that more was missed than the server replays (too much, or too long ago): every list
 * and detail screen reloads (the app's global reload), as after any change of data.
 */
import { requestReload } from '../dataProvider/reload.ts';

/** The window event the screens listen to. */
export const LIVE_EVENT = 'app:live';

export interface LiveMessage {
  event: string;
  data: any;
}

export function onLive(listener: (message: LiveMessage) => void): () => void {
  const handler = (e: Event) => listener((e as CustomEvent<LiveMessage>).detail);
  window.addEventListener(LIVE_EVENT, handler);
  return () => window.removeEventListener(LIVE_EVENT, handler);
}

export interface LiveReaderOptions {
  /** The access token now; undefined: nobody is signed in, the reader stops. */
  token(): string | undefined;
  /** Refresh the access token; rejects when the session is gone. */
  refresh(): Promise<unknown>;
  /** Default `/api/events`. */
  url?: string;
}

const MIN_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
/** After a stream the server ended: at once, but never a tight loop. */
const AGAIN_MS = 250;

/** Parses the blocks of `text` (each ending in a blank line); answers what is left over. */
export function parseBlocks(
  text: string,
  take: (block: { id?: string; event: string; data: string }) => void,
): string {
  let rest = text.replace(/\r\n/g, '\n');
  let cut: number;
  while ((cut = rest.indexOf('\n\n')) !== -1) {
    const block = rest.slice(0, cut);
    rest = rest.slice(cut + 2);
    let id: string | undefined;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length) take({ id, event, data: data.join('\n') });
  }
  return rest;
}

/** Starts reading; answers the function that stops it. */
export function startLiveEvents(options: LiveReaderOptions): () => void {
  const controller = new AbortController();
  let lastId: string | undefined;
  let delay = MIN_DELAY_MS;
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      controller.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });

  const read = async (): Promise<'again' | 'stop' | 'later'> => {
    const token = options.token();
    if (!token) return 'stop';
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
    if (lastId) headers['last-event-id'] = lastId;
    const response = await fetch(options.url ?? '/api/events', { headers, signal: controller.signal });
    if (response.status === 401) {
      try {
        await options.refresh();
        return 'again';
      } catch {
        return 'stop';
      }
    }
    if (!response.ok || !response.body) {
      const retryAfter = Number(response.headers.get('retry-after'));
      if (Number.isFinite(retryAfter) && retryAfter > 0) delay = Math.max(delay, retryAfter * 1000);
      return 'later';
    }
    delay = MIN_DELAY_MS;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'again';
      buffer = parseBlocks(buffer + value, (block) => {
        if (block.id) lastId = block.id;
        if (block.event === 'reset') requestReload();
        let data: unknown = block.data;
        try {
          data = JSON.parse(block.data);
        } catch {
          // A text payload stays text.
        }
        window.dispatchEvent(
          new CustomEvent<LiveMessage>(LIVE_EVENT, { detail: { event: block.event, data } }),
        );
      });
    }
  };

  void (async () => {
    while (!controller.signal.aborted) {
      let outcome: 'again' | 'stop' | 'later';
      try {
        outcome = await read();
      } catch {
        outcome = 'later';
      }
      if (outcome === 'stop' || controller.signal.aborted) return;
      // A stream the server ended (a token that expired) opens again at once; a failure waits.
      await wait(outcome === 'again' ? AGAIN_MS : delay);
      if (outcome === 'later') delay = Math.min(MAX_DELAY_MS, delay * 2);
    }
  })();
  return () => controller.abort();
}
