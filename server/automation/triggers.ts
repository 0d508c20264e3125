/**
 * The trigger engine (issue 37, item 1): runs the tenant's active triggers for an event on a ticket, in
 * the event's own transaction, in position order. A rule whose conditions hold runs its actions as the
 * rule (run-actions.ts) inside a savepoint: a rule that fails is rolled back alone and logged, and the
 * event (a client's ticket, an operator's edit) still happens. `stop_after` stops the rules after it.
 *
 * Chains: a rule's field changes are a ticket_updated event of their own, which may fire other rules.
 * Within one transaction (one chain) a rule never runs twice on the same ticket, and a chain stops at
 * MAX_DEPTH; either way the rule that would have run is logged as `skipped-loop`. The chain lives with
 * the transaction, so an event that reaches the engine through a hook while a rule runs (a message a
 * path writes) continues the chain instead of starting a new one.
 */
import { sql } from 'kysely';
import { systemContext } from '../auth/context.ts';
import type { DbTransaction } from '../db/database.ts';
import { registry as currentRegistry } from '../schema/registry.ts';
import type { AutomationAction } from '../../common/automation/actions.ts';
import { matchingRules } from './conditions.ts';
import type { EventFacts } from './events.ts';
import { runActions, type ActionEffect } from './run-actions.ts';
import { logRun } from './runs.ts';

/** How deep a chain of rules firing rules may go (the first rule is depth 0). */
export const MAX_DEPTH = 5;

interface Chain {
  depth: number;
  /** `rule:ticket` of every rule that ran in the chain. */
  fired: Set<string>;
}

const chains = new WeakMap<DbTransaction, Chain>();

interface TriggerRule {
  id: number;
  name: string;
  event_fields: unknown;
  conditions: unknown;
  actions: unknown;
  stop_after: boolean;
}

/** The active triggers of the event, in run order; for ticket_updated, those watching a field it set. */
async function triggersOf(trx: DbTransaction, facts: EventFacts): Promise<TriggerRule[]> {
  const rules = await trx
    .selectFrom('automation_rules')
    .select(['id', 'name', 'event_fields', 'conditions', 'actions', 'stop_after'])
    .where('tenant_id', '=', facts.tenantId)
    .where('kind', '=', 'trigger')
    .where('active', '=', true)
    .where('event', '=', facts.event)
    .orderBy('position')
    .orderBy('id')
    .execute();
  if (facts.event !== 'ticket_updated') return rules;
  const set = new Set(facts.fields ?? []);
  return rules.filter((rule) => {
    const watched = Array.isArray(rule.event_fields) ? (rule.event_fields as string[]) : [];
    return watched.length === 0 || watched.some((field) => set.has(field));
  });
}

/** The ticket fields the effects changed (custom fields by their `custom_fields.<name>`). */
const changedFields = (effects: ActionEffect[]) => [
  ...new Set(effects.filter((e) => e.type === 'set' && e.field).map((e) => e.field!)),
];

/** The rule's part the engine reads to run it. */
export interface RunnableRule {
  id: number;
  name: string;
  actions: unknown;
}

const chainOf = (trx: DbTransaction): Chain => {
  const chain = chains.get(trx) ?? { depth: 0, fired: new Set<string>() };
  chains.set(trx, chain);
  return chain;
};

/**
 * Runs one rule whose conditions hold on the ticket, as the rule, in a savepoint of the caller's
 * transaction, and logs it; then the ticket_updated triggers of the fields it changed, one level deeper.
 * Answers whether it applied (a rule already in the chain, or past its depth, is logged as a loop).
 */
export async function applyRule(
  trx: DbTransaction,
  tenantId: number,
  rule: RunnableRule,
  ticketId: number,
  event: string,
): Promise<{ applied: boolean; changed: boolean }> {
  const chain = chainOf(trx);
  const run = { tenantId, ruleId: rule.id, ticketId, event };
  const key = `${rule.id}:${ticketId}`;
  if (chain.fired.has(key) || chain.depth >= MAX_DEPTH) {
    await logRun(trx, run, chain.depth, 'skipped-loop', []);
    return { applied: false, changed: false };
  }
  chain.fired.add(key);
  await sql`savepoint automation_rule`.execute(trx);
  let effects: ActionEffect[];
  try {
    effects = await runActions(
      trx,
      currentRegistry(),
      tenantId,
      { kind: 'rule', ruleId: rule.id, name: rule.name },
      [ticketId],
      rule.actions as AutomationAction[],
    );
    await sql`release savepoint automation_rule`.execute(trx);
  } catch (error) {
    await sql`rollback to savepoint automation_rule`.execute(trx);
    await sql`release savepoint automation_rule`.execute(trx);
    const message = error instanceof Error ? error.message.slice(0, 500) : 'error';
    await logRun(trx, run, chain.depth, 'failed', [{ error: message }]);
    return { applied: false, changed: false };
  }
  await logRun(trx, run, chain.depth, 'applied', effects);
  const fields = changedFields(effects);
  if (fields.length === 0) return { applied: true, changed: false };
  chain.depth++;
  try {
    await runTriggers(trx, { tenantId, event: 'ticket_updated', ticketId, fields });
  } finally {
    chain.depth--;
  }
  return { applied: true, changed: true };
}

export async function runTriggers(trx: DbTransaction, facts: EventFacts): Promise<void> {
  const rules = await triggersOf(trx, facts);
  if (rules.length === 0) return;
  const registry = currentRegistry();
  const auth = systemContext(facts.tenantId);
  const where = { tenantId: facts.tenantId, ruleId: 0, ticketId: facts.ticketId, event: facts.event };
  let { matching, broken } = await matchingRules(trx, registry, auth, facts.ticketId, rules);
  for (const [i, rule] of rules.entries()) {
    if (broken.has(rule.id)) {
      await logRun(trx, { ...where, ruleId: rule.id }, chainOf(trx).depth, 'failed', [
        { error: 'conditions' },
      ]);
      continue;
    }
    if (!matching.has(rule.id)) continue;
    const { applied, changed } = await applyRule(trx, facts.tenantId, rule, facts.ticketId, facts.event);
    // The ticket changed: the rules after this one are judged on it as it is now.
    if (changed)
      ({ matching, broken } = await matchingRules(trx, registry, auth, facts.ticketId, rules.slice(i + 1)));
    if (applied && rule.stop_after) break;
  }
}
