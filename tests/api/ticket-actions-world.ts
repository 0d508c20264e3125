/**
 * Set-up shared by the ticket action tests (tests/api/ticket-actions-single.test.ts and
 * ticket-actions-merge.test.ts): the demo tenant with an operator role that lacks the actions, its first
 * status of each internal type and its default, two ticket custom fields, tickets made straight in the
 * database, filled with what a merge moves, and the rows each ticket owns.
 */
import type { TestApp } from './harness.ts';
import { backOffice } from './back-office.ts';

const WITHHELD = [
  'tenant.tickets.close',
  'tenant.tickets.restore',
  'tenant.tickets.clone',
  'tenant.tickets.merge',
  'tenant.ticket-groups.archive',
];

export type TicketActionsWorld = Awaited<ReturnType<typeof ticketActionsWorld>>;

export async function ticketActionsWorld(t: TestApp) {
  const status: Record<number, number> = {};
  let serial = 0;

  const post = (url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers, ...(payload && { payload }) });

  async function makeTicket(options: { type?: number; companyId?: number | null; tenantId?: number } = {}) {
    serial += 1;
    const row = await t.db
      .insertInto('tickets')
      .values({
        tenant_id: options.tenantId ?? b.tenantId,
        reference: `TEST-${serial}`,
        description: `Testticket ${serial}`,
        stage: 'intake',
        status_id: status[options.type ?? 1]!,
        company_id: options.companyId === undefined ? b.ownCompanyId : options.companyId,
        deadline: new Date('2026-12-01T10:00:00Z'),
        resolved_at: options.type === 2 || options.type === 3 ? new Date() : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  /** A message with one attachment, a time registration and a used product on the ticket. */
  async function fill(ticketId: number) {
    const message = await t.db
      .insertInto('messages')
      .values({
        tenant_id: b.tenantId,
        message: '<p>x</p>',
        morphable_type: 'ticket',
        morphable_id: ticketId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('attachments')
      .values({ tenant_id: b.tenantId, message_id: message.id, name: 'a.txt', path: `test/${ticketId}` })
      .execute();
    await t.db
      .insertInto('time_registrations')
      .values({ tenant_id: b.tenantId, ticket_id: ticketId, time_spent: 30, executed_at: new Date() })
      .execute();
    await t.db
      .insertInto('used_products')
      .values({
        tenant_id: b.tenantId,
        ticket_id: ticketId,
        description: 'Kabel',
        quantity: 1,
        price: 5,
        invoice_moment: 1,
        type: 1,
      })
      .execute();
  }

  const setValue = (ticketId: number, fieldId: number, value: string) =>
    t.db
      .insertInto('custom_values')
      .values({
        tenant_id: b.tenantId,
        custom_field_id: fieldId,
        morphable_type: 'ticket',
        morphable_id: ticketId,
        value,
      })
      .execute();

  /** Rows per table owned by each ticket. */
  async function owned(ids: number[]) {
    const count = async (query: any) => Number((await query.executeTakeFirstOrThrow()).n);
    const result: Record<string, number> = {};
    for (const id of ids) {
      result[`messages ${id}`] = await count(
        t.db
          .selectFrom('messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('morphable_type', '=', 'ticket')
          .where('morphable_id', '=', id),
      );
      result[`attachments ${id}`] = await count(
        t.db
          .selectFrom('attachments as a')
          .innerJoin('messages as m', 'm.id', 'a.message_id')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('m.morphable_type', '=', 'ticket')
          .where('m.morphable_id', '=', id),
      );
      for (const table of ['time_registrations', 'used_products'] as const) {
        result[`${table} ${id}`] = await count(
          t.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('ticket_id', '=', id),
        );
      }
    }
    return result;
  }

  const ticket = (id: number) =>
    t.db
      .selectFrom('tickets as t')
      .innerJoin('ticket_statuses as s', 's.id', 't.status_id')
      .select(['t.status_id', 't.resolved_at', 's.internal_type', 't.reference', 't.updated_at'])
      .where('t.id', '=', id)
      .executeTakeFirstOrThrow();

  const b = await backOffice(t, WITHHELD);
  const statuses = await t.db
    .selectFrom('ticket_statuses')
    .select(['id', 'internal_type'])
    .where('tenant_id', '=', b.tenantId)
    .orderBy('order')
    .orderBy('id')
    .execute();
  for (const s of statuses) status[Number(s.internal_type)] ??= Number(s.id);
  const configured = await t.db
    .selectFrom('tenant_configs')
    .select('value')
    .where('tenant_id', '=', b.tenantId)
    .where('name', '=', 'default_ticket_status_id')
    .executeTakeFirst();
  const defaultStatus = configured?.value ? Number(configured.value) : status[1]!;
  const fields = await t.db
    .insertInto('custom_fields')
    .values([
      { tenant_id: b.tenantId, name: 'merk', title: 'Merk', type: 0, morphable_type: 'ticket' },
      { tenant_id: b.tenantId, name: 'kleur', title: 'Kleur', type: 0, morphable_type: 'ticket' },
    ])
    .returning('id')
    .execute();
  const [fieldA, fieldB] = fields.map((f) => Number(f.id)) as [number, number];
  return { b, status, defaultStatus, fieldA, fieldB, post, makeTicket, fill, setValue, owned, ticket };
}
