/**
 * Signed webhooks (issue 38, item 4) against a real HTTP receiver on loopback (the installation allows
 * private targets here, as WEBHOOKS_ALLOW_PRIVATE does): an event is delivered signed (the test checks
 * the signature as a receiver would), retried after 500s, the webhook disabled after failures in a row
 * with a notification to second line, a test event sent and its result answered, the secret shown once,
 * rotated and never in the audit log; and two instances deliver each event exactly once.
 * webhook-targets.test.ts holds the refusals of private targets under the default setting.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookEvent } from '../../server/resources/webhooks/enqueue.ts';
import { pruneDeliveries } from '../../server/resources/webhooks/prune.ts';
import { encryptPassword } from '../../server/mail/inbound/secret.ts';
import type { WebhookSettings } from '../../server/resources/webhooks/settings.ts';
import { buildSecondInstance, buildTestApp, targets, type TestApp } from './harness.ts';
import { waitFor } from './processes.ts';
import { expectCallerFirst, expectInputErrors, inputErrorsOf } from './input-answers.ts';
import { startReceiver, type Receiver, type Received } from './webhook-receiver.ts';

const SETTINGS: WebhookSettings = {
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
function verified(secret: string, request: Received): boolean {
  const timestamp = String(request.headers['x-webhook-timestamp']);
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${request.body}`).digest('hex')}`;
  const given = Buffer.from(String(request.headers['x-webhook-signature']));
  return (
    given.length === expected.length &&
    timingSafeEqual(given, Buffer.from(expected)) &&
    Math.abs(Date.now() / 1000 - Number(timestamp)) < 300
  );
}

describe.each(targets)('webhooks on $name', (target) => {
  let t: TestApp;
  let receiver: Receiver;
  let admin: Record<string, string>;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await buildTestApp(target, { config: { webhooks: SETTINGS } });
    admin = await t.as('admin@example.com');
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answers = {};
    receiver.always = {};
    receiver.silent.clear();
  });

  async function createWebhook(name: string, events: string[], path = `/${name}`) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: admin,
      payload: { name, url: `${receiver.url}${path}`, events },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number; secret: string; name: string };
  }

  const forPath = (path: string) => receiver.received.filter((r) => r.path === path);

  const deliveries = (webhookId: number) =>
    t.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('id')
      .execute();

  async function newTicket(description: string): Promise<number> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: admin,
      payload: { description },
    });
    expect(res.statusCode, res.body).toBe(201);
    return Number(res.json().id);
  }

  it('shows the signing secret once, stores it encrypted, and keeps it out of the audit log', async () => {
    const hook = await createWebhook('secret-once', ['ticket.created']);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const shown = await t.app.inject({ method: 'GET', url: `/api/webhooks/${hook.id}`, headers: admin });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).not.toContain(hook.secret);
    expect(shown.json()).not.toHaveProperty('secret');
    const stored = await t.db
      .selectFrom('webhooks')
      .select('secret_encrypted')
      .where('id', '=', hook.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_encrypted).toMatch(/^v1\./);
    expect(stored.secret_encrypted).not.toContain(hook.secret);

    const rotated = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/${hook.id}/rotate`,
      headers: admin,
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret } = rotated.json() as { secret: string };
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(hook.secret);

    const log = await t.db
      .selectFrom('audit_log')
      .select(['action', 'changes'])
      .where('resource', '=', 'webhooks')
      .where('record_id', '=', hook.id)
      .orderBy('id')
      .execute();
    expect(log.map((e) => e.action)).toEqual(['record.store', 'record.update']);
    expect(log[1]!.changes).toEqual({ secret: ['[hidden]', '[hidden]'] });
    const text = JSON.stringify(log);
    expect(text).not.toContain(hook.secret);
    expect(text).not.toContain(secret);

    // A change and the delete are audited too; the secret still in none.
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/webhooks/${hook.id}`,
      headers: admin,
      payload: { name: 'secret-once renamed' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.body).not.toContain(secret);
    const changed = await t.db
      .selectFrom('audit_log')
      .select('changes')
      .where('resource', '=', 'webhooks')
      .where('record_id', '=', hook.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(changed.changes).toEqual({ name: ['secret-once', 'secret-once renamed'] });

    // The new secret signs from now on.
    const ping = await t.app.inject({ method: 'POST', url: `/api/webhooks/${hook.id}/test`, headers: admin });
    expect(ping.json()).toMatchObject({ status: 'delivered', status_code: 200 });
    const [request] = forPath('/secret-once');
    expect(verified(secret, request!)).toBe(true);
    expect(verified(hook.secret, request!)).toBe(false);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/webhooks/${hook.id}`, headers: admin });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const destroyed = await t.db
      .selectFrom('audit_log')
      .select(['action', 'changes'])
      .where('resource', '=', 'webhooks')
      .where('record_id', '=', hook.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(destroyed.action).toBe('record.destroy');
    expect(JSON.stringify(destroyed.changes)).not.toContain('whsec_');
  });

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

  it('is second line only: first line may not list, create or test webhooks', async () => {
    const hook = await createWebhook('second-line', ['ticket.created']);
    const firstLine = await t.as('operator@example.com');
    const list = await t.app.inject({ method: 'GET', url: '/api/webhooks', headers: firstLine });
    expect(list.statusCode).toBe(403);
    const test = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/${hook.id}/test`,
      headers: firstLine,
    });
    expect(test.statusCode).toBe(403);
    const log = await t.app.inject({ method: 'GET', url: '/api/webhook-deliveries', headers: firstLine });
    expect(log.statusCode).toBe(403);
  });

  it('answers bad input with a 422 naming each field, in the words of the record body', async () => {
    const base = { name: 'bad input', url: 'https://example.com/hook', events: ['ticket.created'] };
    const answer = inputErrorsOf(
      () => t.app,
      '/api/webhooks',
      () => admin,
    );
    const urlPattern = 'The url must match pattern "^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$".';
    await expectInputErrors(answer, [
      ['a text', 'hook', { body: ['The request body must be a JSON object.'] }],
      [
        'nothing',
        {},
        {
          name: ['The name field is required.'],
          url: ['The url field is required.'],
          events: ['The events field is required.'],
        },
      ],
      [
        'a long name',
        { ...base, name: 'n'.repeat(256) },
        { name: ['The name may not be longer than 255 characters.'] },
      ],
      ['a number as URL', { ...base, url: 5 }, { url: ['The url must be of type string.'] }],
      ['an empty URL', { ...base, url: '' }, { url: ['The url field is required.', urlPattern] }],
      ['another scheme', { ...base, url: 'ftp://example.com/hook' }, { url: [urlPattern] }],
      [
        'a long URL',
        { ...base, url: `https://example.com/${'a'.repeat(2000)}` },
        { url: ['The url may not be longer than 2000 characters.'] },
      ],
      [
        'events as text',
        { ...base, events: 'ticket.created' },
        { events: ['The events must be of type array.'] },
      ],
      ['no events', { ...base, events: [] }, { events: ['The events must NOT have fewer than 1 items.'] }],
      [
        'an unknown event',
        { ...base, events: ['ticket.deleted'] },
        { events: ['The selected events is invalid.'] },
      ],
      [
        'an event twice',
        { ...base, events: ['ticket.created', 'ticket.created'] },
        { events: ['The events must NOT have duplicate items (items ## 1 and 0 are identical).'] },
      ],
      ['active as text', { ...base, active: 'yes' }, { active: ['The active must be of type boolean.'] }],
      ['the secret', { ...base, secret: 'whsec_mine' }, { secret: ['Unknown field "secret".'] }],
      ['a read-only field', { ...base, failures: 0 }, { failures: ['The failures field is read-only.'] }],
      // Every problem at once (the names the body may not have were said alone before the schema).
      [
        'an unknown field and no URL',
        { name: 'x', events: [], colour: 1 },
        {
          colour: ['Unknown field "colour".'],
          url: ['The url field is required.'],
          events: ['The events must NOT have fewer than 1 items.'],
        },
      ],
    ]);
    // A URL that passes the pattern but is none is the target check's to say (by hand).
    expect(await answer({ ...base, url: 'https://exa[mple.com/hook' })).toEqual({
      url: ['The URL is not a valid address.'],
    });
  });

  it('answers 401 and 403 before it judges the body', async () => {
    await expectCallerFirst(t.app, '/api/webhooks', await t.as('operator@example.com'));
  });

  it('refuses an unknown event type and a missing URL with 422', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: admin,
      payload: { name: 'bad', url: 'https://example.com/hook', events: ['ticket.deleted'] },
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['events']);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: admin,
      payload: { name: 'bad', events: ['ticket.created'] },
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toHaveProperty('url');
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
