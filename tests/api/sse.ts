/**
 * A reader of GET /api/events for the tests: a real HTTP request to a listening app (node:http, so the
 * Host header can name another tenant), its server-sent events parsed as they come.
 */
import http from 'node:http';

export interface SseEvent {
  id?: string;
  event: string;
  data: any;
}

export interface SseStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  events: SseEvent[];
  comments: number;
  /** The first event (from the start) that `match` accepts, when it comes. */
  next(match: (e: SseEvent) => boolean): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export function openEvents(
  origin: string,
  headers: Record<string, string>,
  options: { lastEventId?: string; host?: string } = {},
): Promise<SseStream> {
  const url = new URL('/api/events', origin);
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      {
        headers: {
          ...headers,
          accept: 'text/event-stream',
          ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
          ...(options.host ? { host: options.host } : {}),
        },
      },
      (response) => {
        const events: SseEvent[] = [];
        const waiters: { match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }[] = [];
        let buffer = '';
        let endResolve: () => void = () => undefined;
        const ended = new Promise<void>((r) => (endResolve = r));
        const stream: SseStream = {
          status: response.statusCode ?? 0,
          headers: response.headers,
          events,
          comments: 0,
          next(match) {
            const found = events.find(match);
            if (found) return Promise.resolve(found);
            return new Promise((r) => waiters.push({ match, resolve: r }));
          },
          ended,
          close: () => request.destroy(),
        };
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const event: SseEvent = { event: 'message', data: undefined };
            let data = '';
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) stream.comments++;
              else if (line.startsWith('id: ')) event.id = line.slice(4);
              else if (line.startsWith('event: ')) event.event = line.slice(7);
              else if (line.startsWith('data: ')) data += line.slice(6);
            }
            if (!data) continue;
            try {
              event.data = JSON.parse(data);
            } catch {
              event.data = data;
            }
            events.push(event);
            for (const waiter of [...waiters]) {
              if (waiter.match(event)) {
                waiters.splice(waiters.indexOf(waiter), 1);
                waiter.resolve(event);
              }
            }
          }
        });
        response.on('end', () => endResolve());
        response.on('close', () => endResolve());
        response.on('error', () => endResolve());
        resolve(stream);
      },
    );
    request.on('error', reject);
  });
}
