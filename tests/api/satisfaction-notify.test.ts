/**
 * Who a bad survey rating tells (issue 39, item 3: "notifies the operator and their line";
 * server/resources/satisfaction-surveys/rate.ts): the ticket's operator and the other active operators
 * of the same line, not the other line (nor the operator once archived); a ticket nobody holds tells
 * the line that takes unassigned work (the first line, as a client's reply on such a ticket does); a
 * good or neutral rating tells nobody.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targets } from './harness.ts';
import { openSurveyDesk, type SurveyDesk } from './satisfaction-desk.ts';

describe.each(targets)('who a survey rating tells on $name', (target) => {
  let d: SurveyDesk;
  /** Lines of the demo: admin@example.com is second line, operator@example.com first line. */
  let secondLine: number[];
  let firstLine: number[];
  let colleague: number;
  let archived: number;

  const operator = async (email: string, line: number, archivedAt: Date | null = null) =>
    Number(
      (
        await d.t.db
          .insertInto('users')
          .values({
            tenant_id: d.tenantId,
            first_name: 'Extra',
            last_name: email,
            email,
            is_staff: true,
            is_operator: line,
            archived_at: archivedAt,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  const line = async (n: number) =>
    (
      await d.t.db
        .selectFrom('users')
        .select('id')
        .where('tenant_id', '=', d.tenantId)
        .where('is_staff', '=', true)
        .where('archived_at', 'is', null)
        .where('is_operator', '=', n)
        .execute()
    )
      .map((u) => Number(u.id))
      .sort((a, b) => a - b);
  const told = async (ticketId: number) =>
    (
      await d.t.db
        .selectFrom('notifications')
        .select('user_id')
        .where('ticket_id', '=', ticketId)
        .where('kind', '=', 'survey_bad')
        .execute()
    )
      .map((n) => Number(n.user_id))
      .sort((a, b) => a - b);
  /** A resolved ticket rated `rating` on the scale of 3 (3 good, 2 neutral, 1 bad) through its link. */
  const rated = async (rating: number, options: { operator?: number | null } = {}) => {
    const id = await d.makeTicket();
    await d.close(id);
    if (options.operator !== undefined)
      await d.t.db
        .updateTable('tickets')
        .set({ operator_id: options.operator })
        .where('id', '=', id)
        .execute();
    const res = await d.rate(await d.tokenOf(id), { rating });
    expect(res.statusCode, res.body).toBe(200);
    return id;
  };

  beforeAll(async () => {
    d = await openSurveyDesk(target);
    colleague = await operator('tweedelijn@example.com', 2);
    archived = await operator('oud-tweedelijn@example.com', 2, new Date());
    await operator('eerstelijn@example.com', 1);
    secondLine = await line(2);
    firstLine = await line(1);
  }, 120_000);
  afterAll(() => d?.t.close());

  it("a bad rating tells the ticket's operator and every active colleague of their line, not the other line", async () => {
    expect(secondLine).toContain(d.adminId);
    expect(secondLine).toContain(colleague);
    expect(secondLine).not.toContain(archived);
    expect(firstLine.length).toBeGreaterThanOrEqual(2);
    const id = await rated(1);
    const to = await told(id);
    expect(to).toEqual(secondLine);
    for (const other of firstLine) expect(to).not.toContain(other);
  });

  it('a bad rating of a ticket nobody holds tells the first line, which takes unassigned work', async () => {
    const id = await rated(1, { operator: null });
    const ticket = await d.t.db
      .selectFrom('tickets')
      .select('operator_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(ticket.operator_id).toBeNull();
    expect(await told(id)).toEqual(firstLine);
  });

  it('an operator who has left is not told; the colleagues of the line still are', async () => {
    const id = await rated(1, { operator: archived });
    expect(await told(id)).toEqual(secondLine);
  });

  it('a good or a neutral rating tells nobody', async () => {
    const good = await rated(3);
    const neutral = await rated(2);
    for (const id of [good, neutral]) {
      const ticket = await d.t.db
        .selectFrom('tickets')
        .select('satisfaction')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(ticket.satisfaction).toBe(id === good ? 'good' : 'neutral');
      expect(await told(id)).toEqual([]);
    }
  });
});
