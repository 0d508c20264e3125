/**
 * Signed webhooks (issue 38, item 4), made and guarded: the secret shown once, stored encrypted, rotated
 * and never in the audit log; second line only; bad input answered field by field.
 * webhook-targets.test.ts holds the refusals of private targets under the default setting.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { targets, type TestApp } from './harness.ts';
import { expectCallerFirst, expectInputErrors, inputErrorsOf } from './input-answers.ts';
import type { Receiver } from './webhook-receiver.ts';
import { openWebhookWorld, resetReceiver, verified, webhookCalls } from './webhooks-world.ts';

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
  const { createWebhook, forPath } = webhookCalls(() => ({ t, receiver, admin }));

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
