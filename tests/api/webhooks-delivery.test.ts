/**
 * Signed webhooks (issue 38, item 4) against a real HTTP receiver on loopback: an event is delivered
 * signed (the test checks the signature as a receiver would), retried after 500s, the webhook disabled
 * after failures in a row with a notification to second line, a test event sent and its result
 * answered, old deliveries pruned; and two instances deliver each event exactly once.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookEvent } from '../../server/resources/webhooks/enqueue.ts';
import { pruneDeliveries } from '../../server/resources/webhooks/prune.ts';
import { encryptPassword } from '../../server/mail/inbound/secret.ts';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { waitFor } from './processes.ts';
import { startReceiver, type Receiver } from './webhook-receiver.ts';
import { SETTINGS, openWebhookWorld, resetReceiver, verified, webhookCalls } from './webhooks-world.ts';

describe.each(targets)('webhooks on $name', (target) => {
  let t: TestApp;
  let receiver: Receiver;
  let admin: Record<string, string>;

  beforeAll(async () => {
    ({ t, receiver, admin } = await openWebhookWorld(target));
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    resetReceiver(receiver);
  });
  const { createWebhook, forPath, deliveries, newTicket } = webhookCalls(() => ({ t, receiver, admin }));

  it('delivers a ticket event signed, with the versioned payload, and logs the delivery', async () => {
    const hook = await createWebhook('signed', ['ticket.created']);
    const ticketId = await newTicket('Webhook delivered signed');
    const [request] = await waitFor(
      'the event received',
      () => forPath('/signed').length > 0 && forPath('/signed'),
    );
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-webhook-event']).toBe('ticket.created');
    expect(request!.headers['x-webhook-signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verified(hook.secret, request!)).toBe(true);
    // A changed body does not verify.
    expect(verified(hook.secret, { ...request!, body: request!.body.replace('ticket', 'Ticket') })).toBe(
      false,
    );
    const payload = JSON.parse(request!.body);
    expect(payload).toMatchObject({ type: 'ticket.created', version: 1, data: { ticket_id: ticketId } });
    expect(payload.id).toBe(request!.headers['x-webhook-id']);
    expect(typeof payload.tenant).toBe('number');
    expect(new Date(payload.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);

    const [row] = await waitFor('the delivery logged', async () => {
      const rows = await deliveries(hook.id);
      return rows[0]?.status === 'delivered' && rows;
    });
    expect(row).toMatchObject({ event: 'ticket.created', attempts: 1, status_code: 200, error: null });
    expect(row!.duration_ms).toBeGreaterThanOrEqual(0);
    expect(row!.delivered_at).not.toBeNull();
    // Through the API: the delivery log of the webhook.
    const log = await t.app.inject({
      method: 'GET',
      url: `/api/webhook-deliveries?builder[0][where][0]=webhook_id&builder[0][where][1]==&builder[0][where][2]=${hook.id}`,
      headers: admin,
    });
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json().data).toMatchObject([
      { event: 'ticket.created', status: 'delivered', status_code: 200 },
    ]);
    expect(log.body).not.toContain('payload');
  });

  it('does not deliver an event the webhook is not subscribed to', async () => {
    const hook = await createWebhook('unsubscribed', ['invoice.created']);
    await newTicket('Not for this webhook');
    expect(await deliveries(hook.id)).toEqual([]);
  });

  it('tries again after 500 answers and delivers the same event, once it is accepted', async () => {
    const hook = await createWebhook('retried', ['ticket.created']);
    receiver.answers['/retried'] = [500, 503];
    await newTicket('Webhook retried');
    const rows = await waitFor('delivered after two failures', async () => {
      const found = await deliveries(hook.id);
      return found[0]?.status === 'delivered' && found;
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ attempts: 3, status_code: 200, error: null });
    const requests = forPath('/retried');
    expect(requests).toHaveLength(3);
    // The same event each time, each attempt signed anew.
    expect(new Set(requests.map((r) => r.headers['x-webhook-id'])).size).toBe(1);
    expect(requests.every((r) => verified(hook.secret, r))).toBe(true);
    const webhook = await t.db
      .selectFrom('webhooks')
      .select('failures')
      .where('id', '=', hook.id)
      .executeTakeFirstOrThrow();
    expect(webhook.failures).toBe(0);
  });

  it('disables a webhook after failures in a row and notifies second line, until it is enabled again', async () => {
    const hook = await createWebhook('failing', ['ticket.created']);
    receiver.always['/failing'] = 500;
    await newTicket('Webhook failing');
    const webhook = await waitFor('the webhook disabled', async () => {
      const row = await t.db
        .selectFrom('webhooks')
        .selectAll()
        .where('id', '=', hook.id)
        .executeTakeFirstOrThrow();
      return row.disabled_at !== null && row;
    });
    expect(webhook).toMatchObject({ active: false, failures: SETTINGS.maxFailures });
    expect(webhook.disabled_reason).toContain('The target answered 500.');
    expect(forPath('/failing')).toHaveLength(SETTINGS.maxFailures);
    const [row] = await deliveries(hook.id);
    expect(row).toMatchObject({ status: 'queued', status_code: 500, attempts: SETTINGS.maxFailures });

    // Second line is told; first line is not.
    const told = await t.db
      .selectFrom('notifications as n')
      .innerJoin('users as u', 'u.id', 'n.user_id')
      .select(['u.email', 'n.text'])
      .where('n.kind', '=', 'webhook_disabled')
      .execute();
    expect(told.map((n) => n.email)).toContain('admin@example.com');
    expect(told.map((n) => n.email)).not.toContain('operator@example.com');
    expect(told.find((n) => n.email === 'admin@example.com')!.text).toContain('failing');

    // Disabled: no new event is queued for it, and its waiting delivery is not tried.
    await newTicket('While disabled');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await deliveries(hook.id)).toHaveLength(1);
    expect(forPath('/failing')).toHaveLength(SETTINGS.maxFailures);

    // Enabled again, the receiver fixed: the waiting delivery goes out and the count starts again.
    delete receiver.always['/failing'];
    const enabled = await t.app.inject({
      method: 'PUT',
      url: `/api/webhooks/${hook.id}`,
      headers: admin,
      payload: { active: true },
    });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toMatchObject({
      active: true,
      failures: 0,
      disabled_at: null,
      disabled_reason: null,
    });
    await waitFor(
      'the waiting delivery delivered',
      async () => (await deliveries(hook.id))[0]?.status === 'delivered',
    );
  });

  it('sends a test event at once and answers with its delivery', async () => {
    const hook = await createWebhook('ping', ['ticket.updated']);
    const ok = await t.app.inject({ method: 'POST', url: `/api/webhooks/${hook.id}/test`, headers: admin });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ status: 'delivered', attempts: 1, status_code: 200, error: null });
    const [request] = forPath('/ping');
    expect(request!.headers['x-webhook-event']).toBe('ping');
    expect(JSON.parse(request!.body)).toMatchObject({
      type: 'ping',
      version: 1,
      data: { webhook_id: hook.id },
    });
    expect(verified(hook.secret, request!)).toBe(true);

    receiver.answers['/ping'] = [404];
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/${hook.id}/test`,
      headers: admin,
    });
    // A 404 is not tried again: the answer shows it given up with the receiver's status.
    expect(refused.json()).toMatchObject({
      status: 'failed',
      status_code: 404,
      error: 'The target answered 404.',
    });
  });

  it('gives up on a receiver that never answers at the deadline, retries it, and keeps serving meanwhile', async () => {
    const hook = await createWebhook('silent', ['ticket.updated']);
    receiver.silent.add('/silent');
    const started = Date.now();
    const pending = t.app.inject({ method: 'POST', url: `/api/webhooks/${hook.id}/test`, headers: admin });
    // While the receiver holds the attempt, the API answers others.
    await waitFor('the receiver reached', async () => forPath('/silent').length === 1);
    const meanwhile = await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: admin });
    expect(meanwhile.statusCode).toBe(200);
    const answer = (await pending).json();
    expect(Date.now() - started).toBeGreaterThanOrEqual(SETTINGS.timeoutMs);
    // What the attempt logged (a retry may already have claimed the row again: its status is not judged).
    expect(answer).toMatchObject({ status_code: null, error: `No answer within ${SETTINGS.timeoutMs} ms.` });
    expect(answer.duration_ms).toBeGreaterThanOrEqual(SETTINGS.timeoutMs - 5);
    // Retried, and delivered once the receiver answers again.
    receiver.silent.clear();
    await waitFor(
      'the silent delivery delivered',
      async () => (await deliveries(hook.id))[0]?.status === 'delivered',
    );
  });

  it('drops finished deliveries older than the kept days, and keeps waiting and recent ones', async () => {
    const hook = await createWebhook('pruned', ['ticket.updated']);
    const tenant = Number(
      (
        await t.db
          .selectFrom('webhooks')
          .select('tenant_id')
          .where('id', '=', hook.id)
          .executeTakeFirstOrThrow()
      ).tenant_id,
    );
    const row = (event: string, status: 'queued' | 'delivered' | 'failed', daysAgo: number) => ({
      tenant_id: tenant,
      webhook_id: hook.id,
      event_id: event,
      event: 'ticket.updated',
      status,
      // Not due: the deliverer leaves the queued one alone while the test looks.
      next_attempt_at: new Date(Date.now() + 3_600_000),
      created_at: new Date(Date.now() - daysAgo * 86_400_000),
    });
    await t.db
      .insertInto('webhook_deliveries')
      .values([
        row('old-delivered', 'delivered', 40),
        row('old-failed', 'failed', 35),
        row('old-waiting', 'queued', 33),
        row('recent-delivered', 'delivered', 2),
      ])
      .execute();
    expect(await pruneDeliveries(t.db, SETTINGS.keepDays)).toBe(2);
    const left = (await deliveries(hook.id)).map((d) => d.event_id);
    expect(left).toEqual(['old-waiting', 'recent-delivered']);
  });
});

describe.each(targets.filter((target) => target.name === 'postgres'))(
  'webhooks, two instances on one $name database',
  (target) => {
    let first: TestApp;
    let second: TestApp;
    let receiver: Receiver;

    beforeAll(async () => {
      receiver = await startReceiver();
      first = await buildTestApp(target, { seed: 'none', config: { webhooks: SETTINGS } });
      second = await buildSecondInstance(first);
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
      await receiver?.close();
    });

    it('delivers each of 20 events exactly once', async () => {
      // A slow receiver: both workers are at work at the same moment.
      receiver.holdMs = 40;
      const tenant = await first.db
        .insertInto('tenants')
        .values({ slug: 'webhooks-once', name: 'Webhooks once' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const tenantId = Number(tenant.id);
      await first.db
        .insertInto('webhooks')
        .values({
          tenant_id: tenantId,
          name: 'once',
          url: `${receiver.url}/once`,
          events: JSON.stringify(['ticket.created']),
          secret_encrypted: await encryptPassword(first.db, tenantId, 'whsec_once'),
        })
        .execute();
      for (let i = 0; i < 20; i++)
        await webhookEvent(i % 2 ? first.db : second.db, tenantId, 'ticket.created', { ticket_id: i });
      await waitFor('every event delivered', async () => {
        const { n } = await first.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', tenantId)
          .where('status', '=', 'delivered')
          .executeTakeFirstOrThrow();
        return Number(n) === 20;
      });
      const ids = receiver.received.map((r) => JSON.parse(r.body).data.ticket_id as number);
      expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      receiver.holdMs = 0;
    });
  },
);
