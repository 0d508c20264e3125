/** A small HTTP client with keep-alive, so a latency sample is the request, not a TCP handshake. */
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export interface Response {
  status: number;
  body: string;
  /** The body's size as sent (a binary file's too; `body` is its bytes read as UTF-8). */
  bytes: number;
}

export function request(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    /** Another keep-alive pool than the shared one (callers that must not queue behind each other). */
    agent?: http.Agent;
    /** Ends the request (rejecting) when this signal aborts. */
    signal?: AbortSignal;
  } = {},
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = http.request(
      url,
      {
        agent: options.agent ?? agent,
        signal: options.signal,
        method: options.method ?? 'GET',
        headers: {
          ...options.headers,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, body: body.toString('utf8'), bytes: body.length });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

export async function login(base: string, email: string, password = 'demo'): Promise<string> {
  const res = await request(`${base}/api/auth/login`, {
    method: 'POST',
    body: { username: email, password },
  });
  if (res.status !== 200)
    throw new Error(`login of ${email} answered ${res.status}: ${res.body.slice(0, 200)}`);
  return (JSON.parse(res.body) as { access_token: string }).access_token;
}

export function closeAgent(): void {
  agent.destroy();
}
