/**
 * The automation rules (issue 37): their save-time checks (server/automation/check-rule.ts) on the
 * generic create and update, and the trigger engine plugged into the desk's events. The engine is set
 * here, when the server loads the resource folders, because the events' module must stay a leaf
 * (server/automation/events.ts says why).
 */
import { checkRule, type RuleInput } from '../../automation/check-rule.ts';
import { setAutomationEngine } from '../../automation/events.ts';
import { runTriggers } from '../../automation/triggers.ts';
import { registry } from '../../schema/registry.ts';
import type { ResourceFolder } from '../folder-contract.ts';
import type { ResourceHooks } from '../hook-contract.ts';
import { automationRuleActions } from './actions.ts';

setAutomationEngine(runTriggers);

/** A column as the hook sees it: JSON columns arrive as JSON text (repository.ts toColumns). */
const json = (value: unknown) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : value);

const asInput = (row: Record<string, unknown>): RuleInput => ({
  kind: row.kind,
  event: row.event ?? null,
  event_fields: json(row.event_fields) ?? [],
  conditions: json(row.conditions) ?? [],
  actions: json(row.actions),
  since: row.since ?? null,
  amount: row.amount ?? null,
  unit: row.unit ?? null,
});

const ruleHooks: ResourceHooks = {
  async beforeStore(row, { trx, auth }) {
    await checkRule(trx, registry(), auth, asInput(row));
  },
  /** The rule as it will be (the stored one with the changes), checked whole: a rule is one thing. */
  async beforeUpdate(id, changes, { trx, auth }) {
    const current = await trx
      .selectFrom('automation_rules')
      .selectAll()
      .where('tenant_id', '=', auth.tenantId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await checkRule(trx, registry(), auth, asInput({ ...current, ...changes }));
  },
};

export default {
  hooks: { 'automation-rules': ruleHooks },
  actions: [automationRuleActions],
} satisfies ResourceFolder;
