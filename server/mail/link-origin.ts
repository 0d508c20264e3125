import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { HttpError } from '../http/errors.ts';
import { parseAuthority } from '../http/host-header.ts';
import { UNKNOWN_TENANT, isLocalHost } from '../tenancy/host.ts';

/**
 * The origin of every link that leaves the server (reset, quote and export mails, the SSO redirect URI):
 * PUBLIC_URL when the operator set it; else the request's own protocol and Host, but only when that
 * host is a plain `host[:port]` naming this machine (see `isLocalHost`). A Host header is the caller's
 * choice: `Host: attacker.com` reaches the default tenant, and a link built from it would hand the
 * mailed secret to attacker.com. Any other host answers the tenancy hook's 404 and nothing is mailed
 * (a Host that is not plain never gets this far: server/http/host-header.ts answers 400 first).
 */
export function linkOrigin(request: FastifyRequest, config: Pick<Config, 'publicUrl'>): string {
  if (config.publicUrl) return config.publicUrl;
  const authority = parseAuthority(request.host);
  // The protocol is `http` or `https`, unless a trusted proxy's X-Forwarded-Proto said otherwise.
  const protocol = request.protocol;
  if (!authority || !isLocalHost(authority.host) || (protocol !== 'http' && protocol !== 'https')) {
    request.log.warn(
      { host: request.host.slice(0, 300) },
      'no link for a host that is not this machine: set PUBLIC_URL',
    );
    throw new HttpError(404, UNKNOWN_TENANT);
  }
  return `${protocol}://${authority.host}`;
}
