import { networkInterfaces } from 'node:os';
import { parseAuthority } from '../http/host-header.ts';

/**
 * The tenant a Host header names: its first label when the host has a subdomain
 * (`acme.localhost:3000`, `acme.example.com` → 'acme'), else the default tenant (a bare host:
 * localhost, an IP address, a single-label name, a two-label domain such as example.com, or `www.`).
 * Returns undefined for a label that can never be a tenant slug, so no lookup is spent on it, and for a
 * host that is not a plain `host[:port]` (see parseAuthority). No host at all (HTTP/1.0): the default.
 */
export function tenantSlugFromHost(host: string | undefined, defaultTenant: string): string | undefined {
  if (!host) return defaultTenant;
  const name = parseAuthority(host)?.name;
  if (name === undefined) return undefined;
  if (isIpAddress(name)) return defaultTenant;
  const labels = name.split('.');
  const first = labels[0] ?? '';
  const last = labels[labels.length - 1];
  const hasSubdomain = labels.length >= 3 || (labels.length === 2 && last === 'localhost');
  if (!hasSubdomain || first === 'www') return defaultTenant;
  return SLUG.test(first) ? first : undefined;
}

/** The 404 of a host that names no tenant (or none a link may point at). */
export const UNKNOWN_TENANT = 'Unknown tenant.';

/**
 * Whether a Host header names this machine whatever its caller says: `localhost` and its subdomains
 * (RFC 6761 keeps them on loopback), a loopback address or one of this machine's own interface
 * addresses. Any other name could be the caller's own domain, so a link built from it is not ours; and
 * so is anything but a plain `host[:port]` (`localhost:80@attacker.com` is attacker.com to a browser).
 */
export function isLocalHost(host: string | undefined): boolean {
  const name = parseAuthority(host ?? '')?.name;
  if (name === undefined) return false;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (!isIpAddress(name)) return false;
  if (name === '::1' || name.startsWith('127.')) return true;
  return Object.values(networkInterfaces()).some((list) =>
    (list ?? []).some((address) => address.address.toLowerCase() === name),
  );
}

/** A DNS label: what a tenant slug may look like. */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function isIpAddress(name: string): boolean {
  return name.includes(':') || /^\d{1,3}(\.\d{1,3}){3}$/.test(name);
}
