/**
 * The checks of a rule that its schema cannot say (each by hand, named here): what its kind needs (a
 * trigger an event, a time rule since/amount/unit), that `event_fields` are ticket fields, that its
 * conditions are a ticket list's builder (the list's own parser: its 422 names `conditions.2.where`),
 * that its actions fit the tenant's data and the saving user's permissions (check-actions.ts), and
 * that it is not a rule that fires again on its own change every time (loopingAction).
 */
import type { AuthContext } from '../auth/context.ts';
import type { DbTransaction } from '../db/database.ts';
import { HttpError, ValidationError } from '../http/errors.ts';
import type { Condition } from '../query/tree.ts';
import type { Registry } from '../schema/registry.ts';
import type { AutomationAction } from '../../common/automation/actions.ts';
import { serverText } from '../../common/server-texts.ts';
import { checkActions } from './check-actions.ts';
import { parseRuleConditions } from './conditions.ts';

export interface RuleInput {
  kind: unknown;
  event: unknown;
  event_fields: unknown;
  conditions: unknown;
  actions: unknown;
  since: unknown;
  amount: unknown;
  unit: unknown;
}

const same = (a: unknown, b: unknown) => (a === null ? null : String(a)) === (b === null ? null : String(b));

/** Whether the condition keeps a ticket whose `field` has `value` out. */
function excludes(c: Condition, field: string, value: unknown): boolean {
  if (!('field' in c) || c.field.name !== field) return false;
  switch (c.type) {
    case 'where':
      return (c.op === '=' && !same(c.value, value)) || (c.op === '!=' && same(c.value, value));
    case 'whereIn':
      return !c.values.some((v) => same(v, value));
    case 'whereNull':
      return value !== null;
    case 'whereNotNull':
      return value === null;
    default:
      return false;
  }
}

/**
 * The index of an action that makes the rule fire on its own change every time: a ticket_updated
 * trigger watching field X (or every field) that sets X, with no top-level condition that excludes the
 * value it sets. Such a rule would run again on each of its own changes (the engine's guard would stop
 * it, and log a loop, every time): refused at save instead. Loops through other rules are the guard's.
 */
export function loopingAction(
  event: unknown,
  watched: readonly string[],
  conditions: Condition[],
  actions: readonly AutomationAction[],
): number | undefined {
  if (event !== 'ticket_updated') return undefined;
  const index = actions.findIndex(
    (a) =>
      a.type === 'set' &&
      (watched.length === 0 || watched.includes(a.field)) &&
      !conditions.some((c) => excludes(c, a.field, a.value)),
  );
  return index < 0 ? undefined : index;
}

const missing = (value: unknown) => value === undefined || value === null || value === '';

/** The rule, checked; a 422 naming every wrong part. */
export async function checkRule(
  trx: DbTransaction,
  registry: Registry,
  auth: AuthContext,
  rule: RuleInput,
): Promise<void> {
  const errors: Record<string, string[]> = {};
  if (rule.kind === 'trigger' && missing(rule.event))
    errors.event = [serverText('field_required', { field: 'event' })];
  if (rule.kind === 'time')
    for (const field of ['since', 'amount', 'unit'] as const)
      if (missing(rule[field])) errors[field] = [serverText('field_required', { field })];
  const watched = Array.isArray(rule.event_fields) ? rule.event_fields.map(String) : [];
  if (watched.length > 0 && rule.event !== 'ticket_updated')
    errors.event_fields = [serverText('automation_not_for_kind')];
  const tickets = registry.require('tickets');
  watched.forEach((field, i) => {
    if (!tickets.fields[field])
      errors[`event_fields.${i}`] = [
        serverText('automation_event_field_unknown', { name: field.slice(0, 100) }),
      ];
  });
  let conditions: Condition[] = [];
  let actions: AutomationAction[] = [];
  for (const check of [
    () => {
      conditions = parseRuleConditions(registry, auth, rule.conditions);
    },
    async () => {
      actions = await checkActions(trx, registry, auth, rule.actions, { permissions: true });
    },
  ]) {
    try {
      await check();
    } catch (error) {
      if (!(error instanceof HttpError) || !error.errors) throw error;
      Object.assign(errors, error.errors);
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const looping = loopingAction(rule.event, watched, conditions, actions);
  if (looping !== undefined) {
    const field = (actions[looping] as { field: string }).field;
    throw new ValidationError({
      [`actions.${looping}.field`]: [serverText('automation_loop', { name: field })],
    });
  }
}
