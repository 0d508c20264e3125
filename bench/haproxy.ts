/**
 * HAProxy in front of service desk instances, as README "Running several instances" describes it: the
 * configuration, where the binary is, and which servers it holds to be up. Shared by the balancer test
 * (tests/api/balancer.test.ts) and the benchmark's instances section, so both measure one configuration.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's haproxy, a hand-built one, or one on the PATH; undefined when there is none. */
export function findHaproxy(): string | undefined {
  const found = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy'].find((path) => existsSync(path));
  if (found) return found;
  const onPath = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' });
  return onPath.status === 0 ? onPath.stdout.trim() : undefined;
}

/** The backend the servers are in (the stats page names them by it). */
export const HAPROXY_BACKEND = 'instances';

/**
 * A configuration with a frontend on `listen` that hands requests round robin to `servers`, and a
 * stats page on `stats` (CSV at /stats;csv) that says which servers are up.
 */
export function haproxyConfig(
  listen: number,
  stats: number,
  servers: { name: string; port: number }[],
): string {
  return [
    'global',
    '  maxconn 256',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  timeout check 1s',
    // A request that could not reach a server (refused connection) goes to another one.
    '  retries 2',
    '  option redispatch',
    // The client's address for the sign-in limits; the instances trust it from HAProxy (TRUST_PROXY).
    '  option forwardfor',
    'frontend desk',
    `  bind 127.0.0.1:${listen}`,
    `  default_backend ${HAPROXY_BACKEND}`,
    `backend ${HAPROXY_BACKEND}`,
    '  balance roundrobin',
    '  option httpchk GET /api/health/ready',
    ...servers.map(({ name, port }) => `  server ${name} 127.0.0.1:${port} check inter 200ms fall 2 rise 1`),
    // Read by the test and the benchmark only: which server HAProxy holds to be up.
    'listen stats',
    `  bind 127.0.0.1:${stats}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ].join('\n');
}

/** HAProxy's status (UP, DOWN, "UP 1/2" …) of each server of the backend, by name, from its stats CSV. */
export function serverStates(csv: string): Map<string, string> {
  const lines = csv.trim().split('\n');
  const header = lines[0]!.replace(/^# /, '').split(',');
  const states = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const fields = line.split(',');
    if (fields[0] === HAPROXY_BACKEND && fields[1] !== 'BACKEND') {
      states.set(fields[1]!, fields[header.indexOf('status')]!);
    }
  }
  return states;
}
