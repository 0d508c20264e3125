/**
 * Set-up shared by the webhook tests (webhooks-management, webhooks-delivery): quick delivery settings,
 * a real HTTP receiver on loopback (the installation allows private targets here, as
 * WEBHOOKS_ALLOW_PRIVATE does), the signature check a receiver makes, and the calls the tests make.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { expect } from 'vitest';
import type { WebhookSettings } from '../../server/resources/webhooks/settings.ts';
import { buildTestApp, type Target, type TestApp } from './harness.ts';
import { startReceiver, type Receiver, type Received } from './webhook-receiver.ts';

export const SETTINGS: WebhookSettings = {
  allowPrivate: true,
  pollMs: 100,
  timeoutMs: 2000,
  leaseMs: 30_000,
  retryBaseMs: 50,
  retryMaxMs: 200,
  maxAttempts: 5,
  maxFailures: 3,
  keepDays: 30,
};

/** What a receiver does (docs/webhooks.md): the signature over timestamp and body, compared in constant time. */
export function verified(secret: string, request: Received): boolean {
  const timestamp = String(request.headers['x-webhook-timestamp']);
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`;
  const given = Buffer.from(String(request.headers['x-webhook-signature']));
  return (
    given.length === expected.length &&
    timingSafeEqual(given, Buffer.from(expected)) &&
    Math.abs(Date.now() / 1000 - Number(timestamp)) < 300
  );
}

export async function openWebhookWorld(
  target: Target,
): Promise<{ t: TestApp; receiver: Receiver; admin: Record<string, string> }> {
  const receiver = await startReceiver();
  const t = await buildTestApp(target, { config: { webhooks: SETTINGS } });
  const admin = await t.as('admin@example.com');
  return { t, receiver, admin };
}

/** Each test starts with a receiver that has seen nothing and answers 200 everywhere. */
export function resetReceiver(receiver: Receiver): void {
  receiver.received.length = 0;
  receiver.answers = {};
  receiver.always = {};
  receiver.silent.clear();
}

export function webhookCalls(world: () => { t: TestApp; receiver: Receiver; admin: Record<string, string> }) {
  async function createWebhook(name: string, events: string[], path = `/${name}`) {
    const { t, receiver, admin } = world();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: admin,
      payload: { name, url: `${receiver.url}${path}`, events },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; secret: string; name: string };
  }

  const forPath = (path: string) => world().receiver.received.filter((r) => r.path === path);

  const deliveries = (webhookId: number) => {
    const { t } = world();
    return t.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('id')
      .execute();
  };

  async function newTicket(description: string): Promise<number> {
    const { t, admin } = world();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: admin,
      payload: { description },
    });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  }

  return { createWebhook, forPath, deliveries, newTicket };
}
