/**
 * A real HTTP receiver on loopback for the webhook tests: it records each request (headers and body)
 * and answers, after `holdMs`, with the next status of its path's `answers` (each webhook of a test has a
 * path of its own), else its path's `always`, else 200. A path in `silent` never answers: the request is read
 * and the connection left open, as a receiver that hangs does.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Per path: statuses to answer with, in turn; then `always` of the path, or 200. */
  answers: Record<string, number[]>;
  always: Record<string, number>;
  holdMs: number;
  silent: Set<string>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    answers: {},
    always: {},
    holdMs: 0,
    silent: new Set(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      receiver.received.push({
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const path = request.url ?? '';
      if (receiver.silent.has(path)) return;
      const status = receiver.answers[path]?.shift() ?? receiver.always[path] ?? 200;
      setTimeout(() => {
        response.statusCode = status;
        response.end('ok');
      }, receiver.holdMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}
