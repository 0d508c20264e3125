/**
 * How long a client may hold a connection of this process without progress (issue 31 item 8). Fastify
 * leaves Node's request timeout off and keeps idle connections for 72 s, and Node checks its header
 * timeout only every 30 s: 300 clients that send their headers one byte at a time (slowloris), or never
 * finish them, held 300 sockets for over a minute. Each limit is a setting (docs/operations.md, server/config.ts).
 */
import type { Server } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import type { Config } from '../config.ts';

type Settings = Pick<
  Config,
  'httpHeadersTimeoutMs' | 'httpRequestTimeoutMs' | 'httpKeepAliveTimeoutMs' | 'httpIdleTimeoutMs'
>;

export function connectionLimits(
  config: Settings,
): Pick<FastifyHttpOptions<Server>, 'connectionTimeout' | 'keepAliveTimeout' | 'requestTimeout' | 'http'> {
  return {
    // No byte either way for this long (a stalled body, a client that stops reading): the socket is
    // destroyed. Event streams stay open through their heartbeats (config checks the heartbeat is shorter).
    connectionTimeout: config.httpIdleTimeoutMs,
    // Between two requests of a keep-alive connection; behind a balancer, longer than its own idle timeout.
    keepAliveTimeout: config.httpKeepAliveTimeoutMs,
    // Headers and body received in full, whatever trickles in (a slow body is not idle).
    requestTimeout: config.httpRequestTimeoutMs,
    http: {
      // From the connection's first byte (or its last answer) until the headers are complete: 408.
      headersTimeout: config.httpHeadersTimeoutMs,
      // Node enforces the two timeouts above by a sweep, every 30 s by default: a limit is only as exact
      // as the sweep, so it runs at least twice per header timeout, at most once a second.
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(config.httpHeadersTimeoutMs / 2))),
    },
  };
}
