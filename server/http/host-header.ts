/**
 * The Host header names the tenant (tenancy/host.ts) and, without PUBLIC_URL, the origin of every mailed
 * link (mail/link-origin.ts). It is the caller's choice, and a text that one reader takes for
 * `localhost` may be `attacker.com` to the browser that opens the link: `localhost:80@attacker.com` is
 * user info before attacker.com, `localhost\@attacker.com` a path after localhost to our eyes but not to
 * every client's. So a Host is read by the WHATWG URL parser (what browsers use) and accepted only when
 * it is a plain `host[:port]` that the parser reads exactly as written; anything else is refused before
 * any route runs, with a 400 (RFC 9110 §7.2: a request with an invalid or repeated Host).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

/** A Host that is a plain `host[:port]`. */
export interface Authority {
  /** Lower-cased, without brackets (IPv6) or a trailing dot: 'localhost', '::1', 'acme.example.com'. */
  name: string;
  /** The header as sent, lower-cased: what a link on this host carries ('localhost:3000', '[::1]:80'). */
  host: string;
}

export const HOST_NOT_PLAIN = 'The Host header must be a host name or address with an optional port.';
export const HOST_REPEATED = 'A request may carry only one Host header.';
export const TARGET_OTHER_HOST = 'The request target names another host than the Host header.';

/**
 * Letters, digits, dots, hyphens and underscores, or an IPv6 address in brackets, then an optional port.
 * No user info, percent-encoding, backslash, path, query, fragment or white space can pass. Linear: each
 * character class is followed by a character outside it.
 */
const PLAIN_HOST = /^(\[[0-9a-f:.]{2,45}\]|[a-z0-9._-]{1,253})(?::([0-9]{1,5}))?$/;
/** A label of a name (or a part of an IPv4 address): none empty, none longer than 63. */
const LABEL = /^[a-z0-9_-]{1,63}$/;

/** The authority a Host header names, or undefined when it is not a plain `host[:port]`. */
export function parseAuthority(header: string): Authority | undefined {
  const host = header.toLowerCase();
  const [, hostname = '', port] = PLAIN_HOST.exec(host) ?? [];
  if (hostname === '') return undefined;
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return undefined;
  }
  // The parser must read the name as written: `127.1`, `0x7f.0.0.1` and `[0:0::1]` are other spellings
  // of an address, which another reader of the link might not share.
  if (url.hostname !== hostname || url.username !== '' || url.password !== '' || url.pathname !== '/')
    return undefined;
  // The port as written, without leading zeros, 1 to 65535 (the parser leaves out http's own 80).
  if (port !== undefined && (String(Number(port)) !== port || url.port !== (port === '80' ? '' : port)))
    return undefined;
  if (hostname.startsWith('[')) return { name: hostname.slice(1, -1), host };
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  return name.split('.').every((label) => LABEL.test(label)) ? { name, host } : undefined;
}

/** Why a request's host cannot be trusted to name anything, or undefined. */
function hostProblem(request: FastifyRequest): string | undefined {
  // Node keeps the first of several Host headers; the raw list has them all.
  const raw = request.raw.rawHeaders;
  const sent = raw.filter((value, i) => i % 2 === 1 && raw[i - 1]!.toLowerCase() === 'host');
  if (sent.length > 1) return HOST_REPEATED;
  // Fastify's `host`: X-Forwarded-Host from a trusted proxy (TRUST_PROXY), else the Host header. Empty
  // only in HTTP/1.0 without a Host: the default tenant answers and no link is made (link-origin.ts).
  if (request.host !== '' && !parseAuthority(request.host)) return HOST_NOT_PLAIN;
  // An absolute-form target (`GET http://evil.example/api/…`) names a host of its own, which RFC 9112
  // §3.2.2 puts before the Host header; the router ignores it, so it must be the same host.
  const target = request.raw.url ?? '';
  if (target.startsWith('/') || target === '*') return undefined;
  try {
    const url = new URL(target);
    const host = new URL(`${url.protocol}//${sent[0] ?? ''}`).host;
    return url.username === '' && url.password === '' && url.host === host ? undefined : TARGET_OTHER_HOST;
  } catch {
    return TARGET_OTHER_HOST;
  }
}

/** Refuses, before any route or the tenancy runs, a request whose host is not one plain `host[:port]`. */
export function refuseHostileHosts(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const problem = hostProblem(request);
    if (problem) {
      request.log.warn({ host: request.host.slice(0, 300) }, 'request refused: its host is not plain');
      throw new HttpError(400, problem);
    }
  });
}
