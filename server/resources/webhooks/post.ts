/**
 * One HTTP POST of a delivery, to the address resolveTarget checked (targets.ts): the request's own name
 * lookup is replaced by that address, so the connection goes where the check looked (no DNS rebinding);
 * TLS still checks the certificate against the URL's name. No redirect is followed (a 3xx is a failed
 * attempt), the whole attempt has a deadline, and no more than a few KB of the answer are read: a
 * receiver cannot hold a worker or fill its memory.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Target } from './targets.ts';

/** The most of an answer's body read (then the connection is closed): only its status matters. */
const ANSWER_LIMIT = 4096;

export interface PostOutcome {
  statusCode: number | null;
  durationMs: number;
  /** Why the attempt failed, short and without the body sent; undefined for a 2xx. */
  error?: string;
  /** A failure worth trying again: 5xx, 408, 429, a timeout or a connection error. */
  retryable: boolean;
}

export async function postTo(
  target: Target,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinned: LookupFunction = (_host, options, callback) => {
    // Node asks for every address when it may try several (autoSelectFamily): give the checked one only.
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const { url } = target;
  const secure = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request.destroy();
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const request = (secure ? https : http).request(
      {
        method: 'POST',
        host,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: isIP(host) ? undefined : pinned,
        // The certificate is checked against the URL's name, not the address connected to.
        ...(secure && !isIP(host) ? { servername: host } : {}),
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        const done = () => {
          if (status >= 200 && status < 300) finish({ statusCode: status, retryable: false });
          else
            finish({
              statusCode: status,
              error:
                status >= 300 && status < 400
                  ? `The target answered ${status} (a redirect, which is not followed).`
                  : `The target answered ${status}.`,
              retryable: status >= 500 || status === 408 || status === 429,
            });
        };
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read >= ANSWER_LIMIT) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const deadline = setTimeout(
      () => finish({ statusCode: null, error: `No answer within ${timeoutMs} ms.`, retryable: true }),
      timeoutMs,
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        statusCode: null,
        // The code and the system's message name the failure; no header or body of ours is in them.
        error: `The connection failed: ${error.code ?? error.message}`.slice(0, 200),
        retryable: true,
      }),
    );
    request.end(body);
  });
}
