/**
 * The OpenID provider of an `sso-providers` row, found by discovery with openid-client (issue 38, item 2).
 * The issuer is a tenant admin's choice, so every request the server makes for it (discovery, keys, token)
 * goes through `guardedFetch`: https only, to an address on the internet, unless the installation allows
 * private issuers (SSO_ALLOW_PRIVATE_ISSUERS, which the tests set for their provider on loopback).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import * as client from 'openid-client';

/** How long one request to the provider may take, in seconds (openid-client's unit). */
export const PROVIDER_TIMEOUT_SECONDS = 10;

/** A sign-in that cannot go on; `message` is for the log and the audit entry, never for the caller. */
export class OidcError extends Error {
  constructor(
    message: string,
    /** The provider could not be reached (an answer of its own: try later), rather than refused. */
    readonly unreachable = false,
  ) {
    super(message);
  }
}

/** Whether `address` (an IP literal) is an ordinary internet address: not loopback, private, link-local… */
function publicAddress(address: string): boolean {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** Refuses a URL that is not https or whose host is (or resolves to) an address outside the internet. */
export async function checkPublicUrl(url: URL): Promise<void> {
  if (url.protocol !== 'https:') throw new OidcError(`${url.protocol} is not https`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  if (addresses.length === 0 || !addresses.every(publicAddress))
    throw new OidcError(`${host} is not a public address`);
}

const guardedFetch: client.CustomFetch = async (url, options) => {
  await checkPublicUrl(new URL(url));
  return fetch(url, options as RequestInit);
};

export interface ProviderSettings {
  issuer: string;
  clientId: string;
  /** Undefined: a public client (PKCE alone). */
  clientSecret: string | undefined;
}

/** The provider's configuration by discovery; an unreachable or refused issuer is an OidcError. */
export async function discover(
  settings: ProviderSettings,
  allowPrivate: boolean,
): Promise<client.Configuration> {
  const auth = settings.clientSecret ? client.ClientSecretPost(settings.clientSecret) : client.None();
  try {
    return await client.discovery(new URL(settings.issuer), settings.clientId, undefined, auth, {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      ...(allowPrivate
        ? { execute: [client.allowInsecureRequests] }
        : { [client.customFetch]: guardedFetch }),
    });
  } catch (error) {
    if (error instanceof OidcError) throw error;
    throw new OidcError(`discovery of ${settings.issuer} failed: ${String(error)}`, true);
  }
}
