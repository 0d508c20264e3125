import { networkInterfaces } from 'node:os';

/**
 * The tenant a Host header names: its first label when the host has a subdomain
 * (`acme.localhost:3000`, `acme.example.com` → 'acme'), else the default tenant (a bare host:
 * localhost, an IP address, a single-label name, a two-label domain such as example.com, or `www.`).
 * Returns undefined for a label that can never be a tenant slug, so no lookup is spent on it.
 */
export function tenantSlugFromHost(host: string | undefined, defaultTenant: string): string | undefined {
  const name = hostName(host ?? '').toLowerCase();
  if (name === '' || isIpAddress(name)) return defaultTenant;
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
 * addresses. Any other name could be the caller's own domain, so a link built from it is not ours.
 */
export function isLocalHost(host: string | undefined): boolean {
  const name = hostName(host ?? '').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (!isIpAddress(name)) return false;
  if (name === '::1' || name.startsWith('127.')) return true;
  return Object.values(networkInterfaces()).some((list) =>
    (list ?? []).some((address) => address.address.toLowerCase() === name),
  );
}

/** A DNS label: what a tenant slug may look like. */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The host without port and trailing dot; `[::1]:3000` → `::1`. */
function hostName(host: string): string {
  const trimmed = host.trim();
  if (trimmed.startsWith('[')) {
    const end = trimmed.indexOf(']');
    return end === -1 ? trimmed.slice(1) : trimmed.slice(1, end);
  }
  // More than one colon without brackets is a bare IPv6 address, which has no port to strip.
  const colons = trimmed.split(':').length - 1;
  const withoutPort = colons === 1 ? trimmed.slice(0, trimmed.indexOf(':')) : trimmed;
  return withoutPort.replace(/\.$/, '');
}

function isIpAddress(name: string): boolean {
  return name.includes(':') || /^\d{1,3}(\.\d{1,3}){3}$/.test(name);
}
