import slaDemo from '../data/sla.json' with { type: 'json' };
import settings from '../data/settings.json' with { type: 'json' };
import type { DbTransaction } from '../../database.ts';
import { DEFAULT_SLA_SETTING } from '../../../sla/policy.ts';
import { storeTicketClocks } from '../../../sla/stored-clock.ts';
import { fail, json, type Row, type SeedContext } from './context.ts';
import type { People } from './people.ts';
import { TICKET_STATUSES, type Lists } from './settings.ts';
import type { DemoCompany } from './tickets.ts';

/*
 * The SLA clock in the demo (issue 35, item 6). The SLAs and calendars themselves are every tenant's
 * reference lists (Basis and Business on office hours with the Dutch holidays, Premium on 24/7); here
 * they are put to work: each company's service contract names one (De Vries: Business, Jansen BV:
 * Premium), the companies keep theirs (data/companies.json) and the tenant's default is Basis.
 *
 * Then a dozen tickets whose histories (data/sla.json: messages, status and SLA changes, in
 * minutes after their creation, created minutes before `now`) make the clock show every state: running,
 * warning, breached (no answer, a late answer, an unanswered second message), paused (waiting for the
 * client, scheduled), met (answered in time, solved in time), reopened, an SLA set midway and a ticket
 * under the tenant's default. They must hold whenever the demo is made (a night, a weekend, Christmas):
 * a state that depends on office hours either is far past its target or uses a few minutes of it, and
 * the warning is on 24/7 (tests/api/sla-demo.test.ts seeds at such moments). The newest of them, the
 * list's first row, has every link (company, client, operator, its own SLA, a thread): tests and the
 * tour take the first row for an ordinary ticket.
 *
 * The seed writes rows directly, not through the hooks that keep the stored clock, so `storeDemoClocks`
 * measures every ticket of the tenant at the seed's `now` in its transaction: a new demo shows the
 * states at once, and the background pass takes over from each ticket's `sla_recheck_at`.
 */

type SlaEvent = { after: number } & (
  { client: string } | { reply: string } | { note: string } | { status: string } | { sla: string }
);

interface SlaTicketPlan {
  description: string;
  company: string | null;
  /** Index into the company's clients. */
  client: number | null;
  operator: 'admin' | 'operator' | null;
  priority: string;
  category: string;
  createdMinutesAgo: number;
  /** What the ticket shows, for whoever reads the data. */
  story: string;
  events: SlaEvent[];
}

const PLANS = slaDemo.tickets as SlaTicketPlan[];
const MIN = 60_000;

const statusIndex = (name: string) => {
  const i = TICKET_STATUSES.findIndex((s) => s.name === name);
  return i >= 0 ? i : fail(`no ticket status ${name}`);
};
const isDone = (index: number) => [2, 3].includes(TICKET_STATUSES[index]!.internal_type);

/** The contracts' and tenant's SLAs, and the SLA demo tickets with their histories; their ids. */
export async function seedSlaDemo(
  ctx: SeedContext,
  lists: Lists,
  people: People,
  companies: DemoCompany[],
): Promise<number[]> {
  const { db } = ctx;
  const slaId = (name: string) => lists.slaIds.get(name) ?? fail(`no SLA ${name}`);
  for (const company of companies) {
    const contractId = company.periods[0]?.contractId ?? fail(`no contract of ${company.plan.name}`);
    await db
      .updateTable('contracts')
      .set({ sla_id: slaId(company.plan.contract.sla) })
      .where('id', '=', contractId)
      .execute();
  }
  await ctx.list('tenant_configs', [{ name: DEFAULT_SLA_SETTING, value: String(slaId(slaDemo.defaultSla)) }]);

  // Whole minutes before `now`, so the thread's times read as a person's.
  const base = Math.floor(ctx.now.getTime() / MIN) * MIN;
  const priorityId = (label: string) =>
    lists.priorityIds[settings.priorities.findIndex((p) => p.label === label)] ??
    fail(`no priority ${label}`);
  const operatorId = { admin: people.adminId, operator: people.operatorId };
  const ticketIds: number[] = [];
  for (const plan of PLANS) {
    const company = plan.company === null ? null : companies.find((c) => c.plan.name === plan.company);
    if (company === undefined) fail(`no company ${plan.company}`);
    const client = company && plan.client !== null ? company.clients[plan.client]! : null;
    const actor = plan.operator === null ? people.operatorId : operatorId[plan.operator];
    const actorName = people.operators.find((o) => o.id === actor)?.name ?? null;
    const created = base - plan.createdMinutesAgo * MIN;
    const at = (after: number) => new Date(created + after * MIN);

    // The history, event by event: what the ticket is at the end, and the rows that tell how it got there.
    let status = 0;
    let sla: number | null = null;
    let resolved: Date | null = null;
    let updated = new Date(created);
    const messages: Row[] = [];
    const changes: Row[] = [];
    for (const event of plan.events) {
      const when = at(event.after);
      updated = when;
      const message = { description: plan.description, type: 'normal', created_at: when, updated_at: when };
      if ('client' in event) {
        messages.push({
          ...message,
          message: `<p>${event.client}</p><p>Met vriendelijke groet,<br>${client?.name ?? ''}</p>`,
          is_from_client: true,
          visible_to_client: true,
          actor_id: client?.id ?? null,
        });
      } else if ('reply' in event) {
        // A public reply, mailed to the client: what counts as a response.
        messages.push({
          ...message,
          message: `<p>Beste ${client?.name.split(' ')[0] ?? ''},</p><p>${event.reply}</p><p>Met vriendelijke groet,<br>Acme IT</p>`,
          visible_to_client: true,
          send_to_client: true,
          to: json(client ? [client.email] : []),
          cc: json([]),
          actor_id: actor,
        });
      } else if ('note' in event) {
        messages.push({
          ...message,
          message: `<p>${event.note}</p>`,
          visible_to_client: false,
          actor_id: actor,
        });
      } else if ('status' in event) {
        const to = statusIndex(event.status);
        const [from, target] = [TICKET_STATUSES[status]!, TICKET_STATUSES[to]!];
        changes.push({
          user_id: actor,
          user_label: actorName,
          field: 'status_id',
          from_value: String(lists.statusIds[status]),
          to_value: String(lists.statusIds[to]),
          from_label: from.name,
          to_label: target.name,
          created_at: when,
        });
        messages.push({
          ...message,
          message: `<p>Status gewijzigd naar ${target.name_client}.</p>`,
          type: 'status-changed',
          data: json({ status: { id: lists.statusIds[to], name: target.name } }),
          visible_to_client: true,
          actor_id: actor,
        });
        resolved = isDone(to) ? (isDone(status) ? resolved : when) : null;
        status = to;
      } else {
        const to = slaId(event.sla);
        changes.push({
          user_id: actor,
          user_label: actorName,
          field: 'sla_id',
          from_value: sla === null ? null : String(sla),
          to_value: String(to),
          from_label: null,
          to_label: event.sla,
          created_at: when,
        });
        sla = to;
      }
    }

    const [id] = await ctx.list('tickets', [
      {
        description: plan.description,
        status_id: lists.statusIds[status],
        priority_id: priorityId(plan.priority),
        company_id: company?.id ?? null,
        client_id: client?.id ?? null,
        operator_id: plan.operator === null ? null : actor,
        ticket_type_id: lists.ticketTypeIds.get('Incident'),
        ticket_source_id: lists.ticketSourceIds[client ? 0 : 1],
        category_id: lists.categoryIds.get(plan.category) ?? fail(`no category ${plan.category}`),
        sla_id: sla,
        is_template: false,
        resolved_at: resolved,
        created_at: new Date(created),
        updated_at: updated,
      },
    ]);
    const ticketId = id!;
    // The reference a ticket made in the app gets (server/resources/tickets/start.ts), in the year it was made.
    await db
      .updateTable('tickets')
      .set({ reference: `T-${new Date(created).getUTCFullYear()}-${String(ticketId).padStart(5, '0')}` })
      .where('id', '=', ticketId)
      .execute();
    await ctx.list(
      'messages',
      messages.map((m) => ({ ...m, morphable_type: 'ticket', morphable_id: ticketId })),
    );
    await ctx.list(
      'ticket_changes',
      changes.map((c) => ({ ...c, ticket_id: ticketId })),
    );
    ticketIds.push(ticketId);
  }
  return ticketIds;
}

/** Measures and stores the SLA clock of every ticket of the demo tenant at the seed's `now`. */
export async function storeDemoClocks(trx: DbTransaction, tenantId: number, now: Date): Promise<void> {
  const tickets = await trx
    .selectFrom('tickets')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('is_template', '=', false)
    .execute();
  await storeTicketClocks(
    trx,
    tenantId,
    tickets.map((t) => t.id),
    now.getTime(),
  );
}
