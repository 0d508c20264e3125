/**
 * A mail whose sender is not verified (issue 31, item 2): operators confirm or reject it, with the
 * permission (403 without it, and for clients), only for their own tenant's message (404 for another
 * tenant's) and only while it is held (422 after); confirming makes the message the client's and gives
 * a ticket without a client that client and company; rejecting keeps it hidden. A tenant that refuses
 * unverified mail records it as rejected and makes nothing of it. The desk: tests/api/mail-desk.ts.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets } from './harness.ts';
import { hasDovecot, rawMail } from './dovecot.ts';
import { startMailDesk, type MailDesk } from './mail-desk.ts';

describe.skipIf(!hasDovecot()).each(targets)('what operators do with a held mail, on $name', (target) => {
  let d: MailDesk;
  beforeAll(async () => {
    d = await startMailDesk(target);
  }, 120_000);
  afterAll(async () => {
    await d?.close();
  });
  const decide = (id: number, decision: 'confirm' | 'reject', headers = d.b.admin) =>
    d.t.app.inject({ method: 'POST', url: `/api/messages/${id}/${decision}-sender`, headers });

  it('lets an operator confirm a held mail: the client gets it, the ticket its client and company', async () => {
    const outcome = await d.receive(rawMail({ from: d.client.email, subject: 'Held, then confirmed' }).raw);
    const ticketId = (outcome as { ticketId: number }).ticketId;
    const messageId = (outcome as { messageId: number }).messageId;
    expect((await d.ticketRow(ticketId)).client_id).toBeNull();

    expect((await decide(messageId, 'confirm', d.b.client)).statusCode).toBe(403);
    expect((await decide(messageId, 'confirm', d.b.limited)).statusCode).toBe(403);
    const confirmed = await decide(messageId, 'confirm');
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({
      sender_check: 'confirmed',
      is_from_client: true,
      visible_to_client: true,
    });
    const row = await d.messageRow(messageId);
    expect(Number(row.actor_id)).toBe(d.client.id);
    const opened = await d.ticketRow(ticketId);
    expect(Number(opened.client_id)).toBe(d.client.id);
    expect(Number(opened.company_id)).toBe(d.client.companyId);
    expect(await d.portalThread(ticketId)).toContain(messageId);
    // Decided once: a second verdict is refused, with the reason.
    const again = await decide(messageId, 'reject');
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(
      'Only a mail whose sender is not verified can be confirmed or rejected.',
    );
  });

  it('lets an operator reject a held mail: it stays, hidden from the client, marked rejected', async () => {
    const mail = await d.mailToClient('Reject test');
    const outcome = await d.receive(
      rawMail({
        from: d.client.email,
        subject: 'Re: Reject test',
        headers: { 'In-Reply-To': mail.messageId! },
      }).raw,
    );
    const messageId = (outcome as { messageId: number }).messageId;
    expect((await decide(messageId, 'reject', d.b.limited)).statusCode).toBe(403);
    const rejected = await decide(messageId, 'reject');
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await d.messageRow(messageId)).toMatchObject({
      sender_check: 'rejected',
      visible_to_client: false,
    });
    expect(await d.portalThread(d.ticket.id)).not.toContain(messageId);
    expect(Number((await d.ticketRow(d.ticket.id)).client_id)).toBe(d.client.id);
  });

  it("answers 404 for another tenant's held message and 422 for a message that is not held", async () => {
    const foreign = await d.t.db
      .insertInto('messages')
      .values({
        tenant_id: d.b.otherTenantId,
        morphable_type: 'ticket',
        morphable_id: d.ticket.id,
        message: '<p>Elsewhere</p>',
        is_from_client: true,
        visible_to_client: false,
        sender_check: 'unverified',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await decide(Number(foreign.id), 'confirm')).statusCode).toBe(404);
    expect((await decide(Number(foreign.id), 'reject')).statusCode).toBe(404);
    expect((await d.messageRow(Number(foreign.id))).sender_check).toBe('unverified');
    const [plain] = await d.messagesOf(d.ticket.id);
    expect((await decide(Number(plain!.id), 'confirm')).statusCode).toBe(422);
  });

  it('records and drops unverified mail when the tenant refuses it', async () => {
    await d.t.db
      .insertInto('tenant_configs')
      .values({ tenant_id: d.b.tenantId, name: 'mail_unverified_sender', value: 'refuse' })
      .execute();
    try {
      const subject = `Refused ${randomBytes(3).toString('hex')}`;
      const outcome = await d.receive(rawMail({ from: d.client.email, subject }).raw);
      expect(outcome.kind).toBe('rejected');
      expect(
        await d.t.db.selectFrom('tickets').select('id').where('description', '=', subject).execute(),
      ).toEqual([]);
      const recorded = await d.t.db
        .selectFrom('mail_incoming')
        .select(['status', 'error'])
        .where('mailbox_id', '=', d.mailboxId)
        .where('subject', '=', subject)
        .executeTakeFirstOrThrow();
      expect(recorded.status).toBe('rejected');
      expect(recorded.error).toContain('could not be verified');
      // A verified client's mail still comes in.
      const fine = await d.receive(
        await d.signed(rawMail({ from: d.client.email, subject: `${subject} signed` }).raw),
      );
      expect(fine.kind).toBe('ticket');
    } finally {
      await d.t.db
        .deleteFrom('tenant_configs')
        .where('tenant_id', '=', d.b.tenantId)
        .where('name', '=', 'mail_unverified_sender')
        .execute();
    }
  });
});
