import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
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
 * Helmet's headers on every answer, pages, assets, API calls and errors alike. The referrer policy is
 * no-referrer: quote links, password-reset links and file links carry tokens in their address, and no
 * part of the apps needs a Referer. HSTS only when the request came over https (request.protocol, which
 * believes a proxy's X-Forwarded-Proto only with TRUST_PROXY): a plain-http install must stay usable.
 */
async function securityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: APP_CSP_DIRECTIVES },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    // On the raw response, as helmet does, so that an error answer keeps it too.
    if (request.protocol === 'https') reply.raw.setHeader('strict-transport-security', HSTS);
  });
}

export const securityHeadersPlugin = fp(securityHeaders, { name: 'security-headers', fastify: '5.x' });
