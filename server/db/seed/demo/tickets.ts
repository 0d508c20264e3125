import tickets from '../data/tickets.json' with { type: 'json' };
import { demoFile } from '../demo-files.ts';
import { messageText } from '../../../html/sanitize.ts';
import { at, DAY, isoDate, json, type Row, type SeedContext } from './context.ts';
import type { Client, CompanyPlan, People, Person } from './people.ts';
import type { CompanySales } from './sales.ts';
import { TICKET_STATUSES, type Lists } from './settings.ts';

/*
 * Tickets in every status for every company, numbered in order of creation, with message threads
 * (client, operator reply, internal notes, status changes, signed work orders) and attachments, one
 * reply whose mail the outbox gave up; notes on assets and companies; templates; the time registered on
 * them, booked on the contract period of its day.
 */

const SUBJECTS = tickets.subjects as [description: string, category: string][];

export interface DemoCompany extends CompanySales {
  plan: CompanyPlan;
  id: number;
  clients: Client[];
  assetIds: number[];
  groupIds: number[];
}

interface TicketPlan {
  company: DemoCompany;
  subject: [string, string];
  status: number;
  client: Client;
  operator: Person;
  created: Date;
  updated: Date;
  row: Row;
}

export interface SeededTickets {
  plans: { company: DemoCompany }[];
  ids: number[];
}

/** A company's ticket groups (one archived); inserted with the company, before its sales. */
export async function seedTicketGroups(
  ctx: SeedContext,
  company: { id: number; plan: CompanyPlan },
): Promise<number[]> {
  return ctx.list(
    'ticket_groups',
    company.plan.groups.map((g) => ({
      company_id: company.id,
      name: g.name,
      description: null,
      archived_at: g.archived ? ctx.daysAgo(20) : null,
      created_at: ctx.daysAgo(150),
      updated_at: ctx.daysAgo(g.archived ? 20 : 5),
    })),
  );
}

export async function seedTickets(
  ctx: SeedContext,
  lists: Lists,
  people: People,
  companies: DemoCompany[],
): Promise<SeededTickets> {
  const { db, opts, random, int, now, daysAgo } = ctx;
  const { operators, adminId, operatorId } = people;
  const { statusIds, priorityIds, ticketTypeList, ticketSourceIds, categoryIds, slaIds, activityIds } = lists;

  const ticketPlans: TicketPlan[] = [];
  for (const company of companies) {
    for (let i = 0; i < company.plan.tickets; i++) {
      const status = i % TICKET_STATUSES.length;
      const internal = TICKET_STATUSES[status]!.internal_type;
      const closed = internal === 2 || internal === 3;
      // Closed and archived tickets are older; open ones are recent.
      const age = closed ? int(20, 200) : int(1, 60);
      const created = daysAgo(age, int(8, 16), at([0, 5, 10, 15, 20, 30, 40, 45, 50], i));
      const updated = new Date(
        Math.floor(
          Math.min(now.getTime() - 60_000 * (i + 1), created.getTime() + random() * Math.max(age, 1) * DAY) /
            60_000,
        ) * 60_000,
      );
      const updatedAt = updated < created ? created : updated;
      const subject = at(SUBJECTS, i * 7 + company.id);
      const client = at(company.clients, i % 5 === 4 ? 1 : 0);
      const operator = at(operators, i % 3 === 0 ? 0 : 1);
      ticketPlans.push({
        company,
        subject,
        status,
        client,
        operator,
        created,
        updated: updatedAt,
        row: {
          description: subject[0],
          stage: at(tickets.stages, i),
          priority_id: at(priorityIds, int(0, 3)),
          status_id: statusIds[status],
          company_id: company.id,
          client_id: client.id,
          operator_id: status === 0 && i % 2 === 0 ? null : operator.id,
          ticket_group_id: i % 6 === 1 ? at(company.groupIds, i) : null,
          ticket_type_id: at(ticketTypeList, i),
          ticket_source_id: at(ticketSourceIds, i + 1),
          category_id: categoryIds.get(subject[1]),
          sla_id: slaIds.get(company.plan.sla),
          asset_id: i % 4 === 0 ? at(company.assetIds, i) : null,
          deadline:
            internal === 6
              ? daysAgo(-int(1, 14), 10)
              : i % 5 === 0 && !closed
                ? daysAgo(int(-5, 5), 17)
                : null,
          is_template: false,
          resolved_at: closed ? updatedAt : null,
          created_at: created,
          updated_at: updatedAt,
        },
      });
    }
  }
  ticketPlans.sort((a, b) => a.created.getTime() - b.created.getTime());
  const perYear = new Map<number, number>();
  for (const t of ticketPlans) {
    const year = t.created.getUTCFullYear();
    const n = (perYear.get(year) ?? 0) + 1;
    perYear.set(year, n);
    t.row.reference = `T-${year}-${String(n).padStart(5, '0')}`;
  }
  const ticketIds = await ctx.list(
    'tickets',
    ticketPlans.map((t) => t.row),
  );

  // Templates: no company, no reference.
  await ctx.list(
    'tickets',
    tickets.templates.map(({ description, category, type }, i) => ({
      description,
      status_id: statusIds[0],
      priority_id: priorityIds[1],
      category_id: categoryIds.get(category),
      ticket_type_id: lists.ticketTypeIds.get(type),
      is_template: true,
      created_at: daysAgo(300 - i),
      updated_at: daysAgo(100 - i),
    })),
  );

  // ---- message threads: sent (client), received (operator reply) and internal notes ----
  interface MessagePlan {
    row: Row;
    attachment?: { name: string; extension: string; mime_type: string; is_embedded?: boolean };
  }
  const messagePlans: MessagePlan[] = [];
  const between = (from: Date, to: Date, fraction: number) =>
    new Date(from.getTime() + Math.max(0, to.getTime() - from.getTime()) * fraction);
  ticketPlans.forEach((t, i) => {
    if (i % 3 === 2) return;
    const ticketId = ticketIds[i]!;
    const base = { morphable_type: 'ticket', morphable_id: ticketId, description: t.subject[0] };
    const first = t.client.name.split(' ')[0];
    const thread: MessagePlan[] = [
      {
        row: {
          ...base,
          message: `<p>Goedemorgen,</p><p>${t.subject[0]}. Kunnen jullie hiernaar kijken?</p><p>Met vriendelijke groet,<br>${t.client.name}</p>`,
          is_from_client: true,
          visible_to_client: true,
          actor_id: t.client.id,
          original_email_from: i % 4 === 0 ? t.client.email : null,
          created_at: t.created,
        },
        attachment:
          i % 5 === 0
            ? { name: 'schermafbeelding.png', extension: 'png', mime_type: 'image/png' }
            : undefined,
      },
      {
        row: {
          ...base,
          message: `<p>Beste ${first},</p><p>${at(tickets.operatorReplies, i)}</p><p>Met vriendelijke groet,<br>${t.operator.name}<br>Acme IT</p>`,
          visible_to_client: true,
          actor_id: t.operator.id,
          send_to_client: true,
          to: json([t.client.email]),
          cc: json(i % 7 === 0 ? [`info@${t.company.plan.domain}`] : []),
          activity_id: at(activityIds, i),
          created_at: between(t.created, t.updated, 0.3),
        },
        attachment:
          i % 10 === 1 ? { name: 'werkbon.pdf', extension: 'pdf', mime_type: 'application/pdf' } : undefined,
      },
    ];
    if (i % 2 === 0) {
      thread.push({
        row: {
          ...base,
          message: `<p>${at(tickets.internalNotes, i)}</p>`,
          visible_to_client: false,
          actor_id: at(operators, i + 1).id,
          created_at: between(t.created, t.updated, 0.5),
        },
      });
    }
    if (i % 3 === 0) {
      thread.push({
        row: {
          ...base,
          message: `<p>${at(tickets.clientFollowUps, i)}</p>`,
          is_from_client: true,
          visible_to_client: true,
          actor_id: t.client.id,
          created_at: between(t.created, t.updated, 0.7),
        },
        attachment: at(tickets.clientFollowUps, i).startsWith('Bijgaand')
          ? { name: 'foutmelding.png', extension: 'png', mime_type: 'image/png' }
          : undefined,
      });
    }
    if (t.status !== 0) {
      const status = TICKET_STATUSES[t.status]!;
      thread.push({
        row: {
          ...base,
          message: `<p>Status gewijzigd naar ${status.name_client}.</p>`,
          type: 'status-changed',
          data: json({ status: { id: statusIds[t.status], name: status.name } }),
          visible_to_client: true,
          actor_id: t.operator.id,
          created_at: t.updated,
        },
      });
    }
    if (t.status === 5 && i % 2 === 1) {
      thread.push({
        row: {
          ...base,
          message: '<p>Werkbon ondertekend door de klant.</p>',
          type: 'work-order-signed',
          data: json({ signed_by: t.client.name }),
          visible_to_client: true,
          actor_id: t.client.id,
          is_from_client: true,
          created_at: t.updated,
        },
        attachment: {
          name: 'werkbon-getekend.pdf',
          extension: 'pdf',
          mime_type: 'application/pdf',
        },
      });
    }
    messagePlans.push(...thread);
  });
  for (const company of companies) {
    company.assetIds.slice(0, 2).forEach((assetId, i) => {
      const base = {
        morphable_type: 'asset',
        morphable_id: assetId,
        description: company.plan.assets[i]!.name,
      };
      messagePlans.push(
        {
          row: {
            ...base,
            message: '<p>Geheugen uitgebreid naar 32 GB en BIOS bijgewerkt.</p>',
            visible_to_client: true,
            actor_id: operatorId,
            created_at: daysAgo(40 + i),
          },
        },
        {
          row: {
            ...base,
            message: '<p>Interne notitie: accu loopt terug, vervangen bij volgende storing.</p>',
            visible_to_client: false,
            actor_id: adminId,
            created_at: daysAgo(12 + i),
          },
        },
      );
    });
    messagePlans.push({
      row: {
        morphable_type: 'company',
        morphable_id: company.id,
        description: 'Contactmoment',
        message: `<p>Interne notitie: jaarlijks evaluatiegesprek met ${company.clients[0]!.name} gepland.</p>`,
        visible_to_client: false,
        actor_id: adminId,
        created_at: daysAgo(25),
      },
    });
  }
  const messageIds = await ctx.list(
    'messages',
    messagePlans.map((m) => ({ type: 'normal', updated_at: m.row.created_at, ...m.row })),
  );
  // Real files through the storage interface, so the demo's attachments open and download.
  const attachmentRows: Row[] = [];
  for (const [i, m] of messagePlans.entries()) {
    if (!m.attachment) continue;
    const content = demoFile(m.attachment.name);
    // Through the seed's transaction: a database store keeps the files only if the seed commits.
    const stored = opts.files ? await opts.files.put(content, db) : { key: '', size: content.length };
    attachmentRows.push({
      ...m.attachment,
      message_id: messageIds[i],
      user_id: m.row.actor_id,
      is_embedded: m.attachment.is_embedded ?? false,
      size: stored.size,
      path: stored.key,
      created_at: m.row.created_at,
    });
  }
  await ctx.list('attachments', attachmentRows);

  // ---- the tickets' history (issue 18): what their status-changed messages tell, as changes ----
  await ctx.list(
    'ticket_changes',
    ticketPlans.flatMap((t, i) =>
      t.status === 0
        ? []
        : [
            {
              ticket_id: ticketIds[i],
              user_id: t.operator.id,
              user_label: t.operator.name,
              field: 'status_id',
              from_value: String(statusIds[0]),
              to_value: String(statusIds[t.status]),
              from_label: TICKET_STATUSES[0]!.name,
              to_label: TICKET_STATUSES[t.status]!.name,
              created_at: t.updated,
            },
          ],
    ),
  );

  // ---- notifications (issue 19): each operator was told of the first tickets given to them, read ----
  const told = new Set<number>();
  await ctx.list(
    'notifications',
    ticketPlans.flatMap((t, i) => {
      if (told.has(t.operator.id)) return [];
      told.add(t.operator.id);
      return [
        {
          user_id: t.operator.id,
          kind: 'assigned',
          ticket_id: ticketIds[i],
          read_at: t.created,
          created_at: t.created,
        },
      ];
    }),
  );
  // Their mail choices: in the app only, as for everyone who chose nothing.
  await ctx.list(
    'notification_preferences',
    [...told].map((userId) => ({ user_id: userId, kind: 'assigned', email: false })),
  );

  // ---- outgoing mail (issue 15, item 4): one reply whose mail the outbox gave up ----
  // Given up, not queued: a queued mail would be sent by every server started on the demo data. The
  // operators see it in the outgoing mail list and on the reply, and may try it again.
  const undelivered = messagePlans.findIndex((m) => m.row.send_to_client === true);
  if (undelivered >= 0) {
    const reply = messagePlans[undelivered]!.row;
    const ticket = ticketPlans.find((_, i) => ticketIds[i] === reply.morphable_id)!;
    const to = JSON.parse(String(reply.to)) as string[];
    const cc = JSON.parse(String(reply.cc)) as string[];
    const error = '550 Mailbox unavailable';
    const failedAt = new Date((reply.created_at as Date).getTime() + 3 * 3_600_000);
    await db
      .updateTable('messages')
      .set({
        mail_error: `The e-mail to the client could not be sent and has been given up (8 attempts): ${error}`,
      })
      .where('id', '=', messageIds[undelivered]!)
      .execute();
    await ctx.list('mail_outbox', [
      {
        recipients: [...to, ...cc].join(', '),
        subject: `[${String(ticket.row.reference)}] ${String(reply.description)}`,
        mail: json({
          to,
          cc,
          bcc: [],
          subject: `[${String(ticket.row.reference)}] ${String(reply.description)}`,
          text: messageText(String(reply.message)),
          html: reply.message,
          attachments: [],
        }),
        source: 'messages',
        source_id: messageIds[undelivered],
        context: json({ addresses: { to, cc, bcc: [] } }),
        status: 'failed',
        attempts: 8,
        last_error: error,
        created_at: reply.created_at,
        next_attempt_at: failedAt,
        last_attempt_at: failedAt,
        failed_at: failedAt,
      },
    ]);
  }

  // ---- time registrations, booked on the contract period of their day ----
  const timeRows: Row[] = [];
  const usedPerPeriod = new Map<number, number>();
  ticketPlans.forEach((t, i) => {
    const internal = TICKET_STATUSES[t.status]!.internal_type;
    if (t.status === 0 || (i % 2 === 1 && internal !== 2 && internal !== 3)) return;
    const count = 1 + (i % 3 === 0 ? 1 : 0);
    for (let k = 0; k < count; k++) {
      const executed = between(t.created, t.updated, (k + 1) / (count + 1));
      const day = isoDate(executed);
      const spent = at(tickets.minutesSpent, int(0, 6));
      const rounded = Math.ceil(spent / 15) * 15;
      const period = t.company.periods.find((p) => p.start <= day && (p.end === null || day <= p.end));
      // Some work (outside the contract's scope) is booked on the prepaid card.
      const onPrepaid = i % 5 === 0 && day >= t.company.prepaidPeriod.start;
      const periodId = onPrepaid ? t.company.prepaidPeriod.id : (period?.id ?? null);
      if (periodId !== null) usedPerPeriod.set(periodId, (usedPerPeriod.get(periodId) ?? 0) + rounded);
      // Work outside any contract is billed: part of it is on the paid invoice already.
      const invoiceId = periodId === null && i % 3 === 0 ? t.company.paidInvoiceId : null;
      timeRows.push({
        ticket_id: ticketIds[i],
        contract_period_id: periodId,
        activity_id: at(activityIds, i + k),
        operator_id: t.operator.id,
        description: at(tickets.timeDescriptions, i + k),
        time_spent: spent,
        time_spent_rounded: rounded,
        executed_at: executed,
        invoice_id: invoiceId,
        created_at: executed,
        updated_at: executed,
      });
    }
  });
  await ctx.list('time_registrations', timeRows);
  for (const company of companies) {
    const all = [...company.periods, company.prepaidPeriod];
    for (const p of all) {
      const used = usedPerPeriod.get(p.id) ?? 0;
      await db
        .updateTable('contract_periods')
        .set({ registered_time: used, minutes_remaining: p.total - used })
        .where('id', '=', p.id)
        .execute();
    }
    const current = company.periods[company.periods.length - 1]!;
    for (const p of [current, company.prepaidPeriod]) {
      await db
        .updateTable('contracts')
        .set({ minutes_remaining: p.total - (usedPerPeriod.get(p.id) ?? 0) })
        .where('id', '=', p.contractId)
        .execute();
    }
  }

  return { plans: ticketPlans, ids: ticketIds };
}
