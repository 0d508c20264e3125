/**
 * Where a webhook may POST (issue 38, item 4). A tenant's admin types the URL; without a check, the server
 * would call whatever it names, its own loopback and the private network it runs in included (SSRF). So
 * only public unicast addresses are targets, IPv4 and IPv6 (an IPv4-mapped IPv6 address is judged as the
 * IPv4 address it holds), unless the installation allows private targets (WEBHOOKS_ALLOW_PRIVATE).
 *
 * Checked twice: when a webhook is saved (`targetProblem`: the URL's form, an address literal, a
 * `localhost` name), and at each delivery after the name is resolved (`resolveTarget`), where every
 * address the name has must be public and the request then connects to the address that was checked,
 * so a name that resolves to a public address at the check and a private one at the connection (DNS
 * rebinding) cannot slip through.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { serverText } from '../../../common/server-texts.ts';

export interface Target {
  url: URL;
  /** The checked address the request connects to. */
  address: string;
  family: 4 | 6;
}

/** Why a URL is refused, as the 422 and the delivery log say it. */
export class TargetRefused extends Error {}

/** The range of an address literal; an IPv4-mapped IPv6 address is its IPv4 address. */
function rangeOf(address: string): string {
  const parsed = ipaddr.process(address);
  return parsed.range();
}

/** A public unicast address: nothing of loopback, private, link-local, multicast, unspecified or reserved. */
export function isPublicAddress(address: string): boolean {
  try {
    return rangeOf(address) === 'unicast';
  } catch {
    return false;
  }
}

/** The URL's host as an address literal or a name, without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Why the URL may not be a target (a text of common/server-texts.ts); undefined when it may. */
export function targetProblem(text: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return serverText('webhook_url_invalid');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    return serverText('webhook_url_not_https');
  // Credentials in a URL end up in logs and in the list of webhooks: the signature is the authentication.
  if (url.username || url.password) return serverText('webhook_url_credentials');
  if (allowPrivate) return undefined;
  const host = hostOf(url);
  if (isIP(host)) return isPublicAddress(host) ? undefined : privateTarget(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return privateTarget(host);
  return undefined;
}

const privateTarget = (host: string) => serverText('webhook_url_private', { name: host });

/**
 * The address to connect to for `text`, after resolving its name; TargetRefused when the URL may not be
 * a target or any address of the name is not public (unless allowed).
 */
export async function resolveTarget(text: string, allowPrivate: boolean): Promise<Target> {
  const problem = targetProblem(text, allowPrivate);
  if (problem) throw new TargetRefused(problem);
  const url = new URL(text);
  const host = hostOf(url);
  const family = isIP(host);
  if (family === 4 || family === 6) return { url, address: host, family };
  let addresses: { address: string; family: number }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new TargetRefused(`The name ${host} could not be resolved.`);
  }
  if (!addresses.length) throw new TargetRefused(`The name ${host} could not be resolved.`);
  const refused = addresses.find((a) => !isPublicAddress(a.address));
  if (refused && !allowPrivate) throw new TargetRefused(privateTarget(`${host} (${refused.address})`));
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
