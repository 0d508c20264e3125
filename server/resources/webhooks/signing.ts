/**
 * The signature of a webhook delivery (docs/webhooks.md): `X-Webhook-Signature: v1=<hex>`, the
 * HMAC-SHA256 with the webhook's secret of `<timestamp>.<body>`, the timestamp (Unix seconds) sent in
 * `X-Webhook-Timestamp`. Signing the timestamp with the body lets a receiver refuse an old delivery
 * replayed; `v1=` leaves room for another scheme beside this one during a change.
 */
import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret: 32 random bytes, recognisable as a webhook secret where it is pasted. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signature(secret: string, timestamp: string, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The headers of a delivery of `body`, signed now. */
export function signedHeaders(
  secret: string,
  body: string,
  event: { id: string; type: string },
  now = Date.now(),
): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  return {
    'content-type': 'application/json',
    'user-agent': 'ServiceDesk-Webhooks/1',
    'x-webhook-id': event.id,
    'x-webhook-event': event.type,
    'x-webhook-timestamp': timestamp,
    'x-webhook-signature': signature(secret, timestamp, body),
  };
}
