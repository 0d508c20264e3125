import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { GRAVATAR_ORIGIN } from '../resources/messages/gravatar.ts';

/**
 * The Content-Security-Policy of both apps, and of every other answer unless a route sends its own
 * (stored files: a sandbox; the API viewer: server/docs/plugin.ts). Scripts only from this server and
 * never inline; nothing may frame the apps. Why styles may be inline: docs/decisions.md, "Security
 * headers".
 */
export const APP_CSP_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  // data: for drawn signatures; message images are our own attachment addresses (the sanitiser drops
  // any other). The one outside host is Gravatar: SPEC 1 gives message actors and recipients a
  // gravatar address, which the threads show (no-referrer keeps the page's address from it). No blob:
  // image is shown anywhere (saving a blob is a download, not an image).
  'img-src': ["'self'", 'data:', GRAVATAR_ORIGIN],
  'font-src': ["'self'", 'data:'],
  // Microsoft sign-in is a navigation to its page and a code exchange by the server: no fetch leaves.
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** A year, for every host below this one too: tenants are subdomains of the same service. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** `directives` as a header value, for routes that set their policy themselves. */
export function cspHeader(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * The headers of every answer, in the order and spelling @fastify/helmet 13 (helmet 8) wrote them with
 * the settings this app gave it: its defaults, our CSP, no-referrer, DENY, no HSTS (set below). Built
 * once here instead of by helmet on every request, which parsed the CSP settings again each time (issue
 * 40); tests/api/answer-headers.test.ts holds the full set of each kind of answer as helmet left it.
 * The referrer policy is no-referrer: quote links, password-reset links and file links carry tokens in
 * their address, and no part of the apps needs a Referer.
 */
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = Object.freeze([
  // helmet's spelling: no space after the semicolons (cspHeader, for routes' own policies, has one).
  ['Content-Security-Policy', cspHeader(APP_CSP_DIRECTIVES).replaceAll('; ', ';')],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'DENY'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
] as const);

/**
 * The headers above on every answer, pages, assets, API calls and errors alike: on the raw response, as
 * helmet did, so that an error answer keeps them too and a route's own header (a stored file's sandbox
 * CSP) replaces ours. HSTS only when the request came over https (request.protocol, which believes a
 * proxy's X-Forwarded-Proto only with TRUST_PROXY): a plain-http install must stay usable.
 */
function setSecurityHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  const raw = reply.raw;
  for (const [name, value] of SECURITY_HEADERS) raw.setHeader(name, value);
  if (request.protocol === 'https') raw.setHeader('strict-transport-security', HSTS);
  done();
}

async function securityHeaders(app: FastifyInstance): Promise<void> {
  // A callback hook, not an async one: no promise per request for a few assignments.
  app.addHook('onRequest', setSecurityHeaders);
}

export const securityHeadersPlugin = fp(securityHeaders, { name: 'security-headers', fastify: '5.x' });
