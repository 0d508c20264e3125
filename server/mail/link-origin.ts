import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { HttpError } from '../http/errors.ts';
import { UNKNOWN_TENANT, isLocalHost } from '../tenancy/host.ts';

/**
 * The origin of every link that leaves the server (reset, quote and export mails, the SSO redirect URI):
 * PUBLIC_URL when the operator set it; else the request's own protocol and Host, but only when that
 * host is this machine (see `isLocalHost`). A Host header is the caller's choice: `Host: attacker.com`
 * reaches the default tenant, and a link built from it would hand the mailed secret to attacker.com.
 * Any other host answers the tenancy hook's 404 and nothing is mailed.
 */
export function linkOrigin(request: FastifyRequest, config: Pick<Config, 'publicUrl'>): string {
  if (config.publicUrl) return config.publicUrl;
  if (!isLocalHost(request.host)) {
    request.log.warn({ host: request.host }, 'no link for a host that is not this machine: set PUBLIC_URL');
    throw new HttpError(404, UNKNOWN_TENANT);
  }
  return `${request.protocol}://${request.host}`;
}
