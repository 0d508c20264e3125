/**
 * The time-based rules' loop (issue 37, item 2): every instance looks (a WakeLoop in the
 * automation-rules folder); for each active time rule it finds the tickets whose "since" began long
 * enough ago (due-time.ts) and whose conditions hold now (the list's compiler, as a trigger's), and runs
 * the rule on each once per anchor: the row (rule, ticket, anchor) in automation_claims is the claim,
 * inserted in the transaction that acts, so however many instances look, one acts; a ticket acts again
 * only when its anchor moves (its status changed again, a new reply came), i.e. when the condition
 * became false and true again.
 */
import { sql } from 'kysely';
import { systemContext } from '../auth/context.ts';
import type { Db } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { and, ref, tableAs, type Fragment } from '../query/fragments.ts';
import { baseConditions, compileCondition, sqlContext } from '../query/sql.ts';
import { parseBuilderConditions } from '../query/parse.ts';
import { registry as currentRegistry } from '../schema/registry.ts';
import { ALWAYS_OPEN, type Calendar } from '../../common/sla/calendar.ts';
import { slaPolicies } from '../sla/policy.ts';
import { dueAfter, wallLowerBoundMs, type TimeUnit } from './due-time.ts';
import { applyRule } from './triggers.ts';
import { pruneRuns } from './runs.ts';

/** At most this many tickets per rule per look; the next look goes on. */
const BATCH = 200;

export type Since = 'status_changed' | 'last_operator_reply' | 'last_client_message' | 'resolved' | 'created';

/**
 * The instant a ticket's "since" began, as SQL over the ticket `alias`; null when it has not. A ticket
 * without a reply (or a client message) has waited for one since it was made: "no operator reply for 4
 * hours" is first of all the new ticket nobody answered.
 */
function anchorOf(since: Since, alias: string): Fragment {
  const id = ref(alias, 'id');
  const tenant = ref(alias, 'tenant_id');
  const lastMessage = (fromClient: boolean) => sql`(select max(m.created_at) from messages m
    where m.tenant_id = ${tenant} and m.morphable_type = 'ticket' and m.morphable_id = ${id}
      and m.type = 'normal' and m.is_from_client = ${fromClient}
      ${fromClient ? sql`` : sql`and m.visible_to_client`})`;
  switch (since) {
    case 'created':
      return ref(alias, 'created_at');
    case 'resolved':
      return ref(alias, 'resolved_at');
    case 'status_changed':
      return sql`coalesce((select max(c.created_at) from ticket_changes c
        where c.tenant_id = ${tenant} and c.ticket_id = ${id} and c.field = 'status_id'), ${ref(alias, 'created_at')})`;
    case 'last_operator_reply':
      return sql`coalesce(${lastMessage(false)}, ${ref(alias, 'created_at')})`;
    case 'last_client_message':
      return sql`coalesce(${lastMessage(true)}, ${ref(alias, 'created_at')})`;
  }
}

interface TimeRule {
  id: number;
  tenant_id: number;
  name: string;
  conditions: unknown;
  actions: unknown;
  since: string | null;
  amount: number | null;
  unit: string | null;
}

/** The tickets of one rule whose wait may be over and that hold its conditions, not yet claimed. */
async function candidates(db: Db, rule: TimeRule, now: number) {
  const registry = currentRegistry();
  const tickets = registry.require('tickets');
  const ctx = sqlContext(registry, systemContext(rule.tenant_id));
  const alias = ctx.nextAlias();
  const conditions = parseBuilderConditions(ctx, tickets, rule.conditions, 'conditions');
  // To the millisecond, as a Date carries it back into the claim: the claim's anchor compares equal.
  const anchor = sql`date_trunc('milliseconds', ${anchorOf(rule.since as Since, alias)})`;
  const bound = new Date(now - wallLowerBoundMs(rule.amount!, rule.unit as TimeUnit));
  const where = and([
    ...baseConditions(ctx, tickets, alias),
    ...conditions.map((c) => compileCondition(ctx, tickets, alias, c)),
  ]);
  const { rows } = await sql<{ id: number; anchor: Date; sla_id: number | null }>`
    select * from (select ${ref(alias, 'id')} as id, ${anchor} as anchor, ${ref(alias, 'applied_sla_id')} as sla_id
      from ${tableAs(tickets, alias)} where ${where}) as due
    where due.anchor is not null and due.anchor <= ${bound}
      and not exists (select 1 from automation_claims c
        where c.rule_id = ${rule.id} and c.ticket_id = due.id and c.anchor = due.anchor)
    order by due.id limit ${BATCH}`.execute(db);
  return rows.map((r) => ({
    id: Number(r.id),
    anchor: new Date(r.anchor),
    slaId: r.sla_id === null ? null : Number(r.sla_id),
  }));
}

/** The calendars the tickets' clocks count in, by SLA id (none: always open). */
async function calendars(db: Db, tenantId: number, slaIds: number[]): Promise<Map<number, Calendar>> {
  const policies = await slaPolicies(db, tenantId, [...new Set(slaIds)]);
  return new Map([...policies].map(([id, policy]) => [id, policy.calendar]));
}

/** One look at every active time rule; answers how many times a rule acted. */
export async function runTimeRules(db: Db, now = Date.now()): Promise<number> {
  const rules = await db
    .selectFrom('automation_rules')
    .select(['id', 'tenant_id', 'name', 'conditions', 'actions', 'since', 'amount', 'unit'])
    .where('kind', '=', 'time')
    .where('active', '=', true)
    .orderBy('tenant_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
  let acted = 0;
  for (const rule of rules) {
    if (!rule.since || !rule.amount || !rule.unit) continue;
    let found: Awaited<ReturnType<typeof candidates>>;
    try {
      found = await candidates(db, rule, now);
    } catch (error) {
      // Conditions that no longer parse (a field left the schema since the save): the rule waits.
      if (error instanceof HttpError) continue;
      throw error;
    }
    const business = rule.unit.startsWith('business_');
    const byCalendar = business
      ? await calendars(
          db,
          rule.tenant_id,
          found.flatMap((f) => (f.slaId === null ? [] : [f.slaId])),
        )
      : new Map<number, Calendar>();
    for (const ticket of found) {
      const calendar = (ticket.slaId !== null && byCalendar.get(ticket.slaId)) || ALWAYS_OPEN;
      const due = dueAfter(calendar, ticket.anchor.getTime(), rule.amount, rule.unit as TimeUnit);
      if (due === null || due > now) continue;
      const ran = await db.transaction().execute(async (trx) => {
        const claimed = await trx
          .insertInto('automation_claims')
          .values({ rule_id: rule.id, ticket_id: ticket.id, anchor: ticket.anchor })
          .onConflict((oc) => oc.columns(['rule_id', 'ticket_id', 'anchor']).doNothing())
          .returning('rule_id')
          .executeTakeFirst();
        if (!claimed) return false;
        await applyRule(trx, rule.tenant_id, rule, ticket.id, 'time');
        return true;
      });
      if (ran) acted++;
    }
  }
  await pruneRuns(db);
  return acted;
}
