/**
 * Checks an action list (common/automation/actions.ts) against the tenant's data before it is stored
 * (a rule) or run (a macro): each action's type and shape, the field it sets (a settable ticket field or
 * a custom field of the tenant's tickets), the value (a record of the tenant the field may point at),
 * the standard answer and the operators it names; with `permissions`, also whether the user may take
 * each action. Every problem is a 422 line under the action's place, `actions.2.value`, so a form can
 * put it next to the part that is wrong.
 */
import { sql } from 'kysely';
import type { AuthContext } from '../auth/context.ts';
import type { Db, DbTransaction } from '../db/database.ts';
import { ValidationError } from '../http/errors.ts';
import { problemWith, type Definition } from '../resources/custom-values.ts';
import { and, ref, tableAs } from '../query/fragments.ts';
import { baseConditions, sqlContext } from '../query/sql.ts';
import type { Registry } from '../schema/registry.ts';
import {
  ACTION_TYPES,
  CUSTOM_FIELD_PREFIX,
  MAX_ACTIONS,
  MAX_LOGGED_DESCRIPTION,
  MAX_LOGGED_MINUTES,
  PERSON_ACTION_TYPES,
  SETTABLE_FIELDS,
  type AutomationAction,
  type AutomationActionType,
} from '../../common/automation/actions.ts';
import { serverText } from '../../common/server-texts.ts';

/**
 * The action types the runner takes: all of them (`notify` is a notification of the kind `automation`
 * whose words are the action's own text, notifications/kinds.ts).
 */
export const RUNNABLE_TYPES: readonly AutomationActionType[] = ACTION_TYPES;

/** The longest note an action carries. */
const MAX_TEXT = 20_000;
/** The longest notification text: a line in the bell and in a mail, as a disabled webhook's reason. */
export const MAX_NOTIFY_TEXT = 1_000;

/**
 * The permission a user needs to take each kind of action by hand: setting a field is an edit of the
 * ticket; a note or a reply is a new message; mailing or notifying operators is part of handling the
 * ticket, as an assignment tells its operator; logging time is storing a time registration.
 */
export const ACTION_PERMISSION: Record<AutomationActionType, string> = {
  set: 'tenant.tickets.update',
  note: 'tenant.messages.store',
  reply: 'tenant.messages.store',
  mail_operators: 'tenant.tickets.update',
  notify: 'tenant.tickets.update',
  log_time: 'tenant.time-registrations.store',
};

type Errors = Record<string, string[]>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown, max = MAX_TEXT) =>
  typeof value === 'string' && value.trim() !== '' && value.length <= max;

const positiveId = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** Whether `id` is a record of `resourceName` the caller's tenant holds (its fixed conditions too). */
async function exists(
  db: Db | DbTransaction,
  registry: Registry,
  auth: AuthContext,
  resourceName: string,
  id: number,
): Promise<boolean> {
  const target = registry.require(resourceName);
  const ctx = sqlContext(registry, auth);
  const alias = ctx.nextAlias();
  const where = and([sql`${ref(alias, 'id')} = ${id}`, ...baseConditions(ctx, target, alias)]);
  const { rows } = await sql`select 1 from ${tableAs(target, alias)} where ${where}`.execute(db);
  return rows.length > 0;
}

/** The resource a settable ticket field points at (its belongsTo relation in the tickets' schema). */
function referenced(registry: Registry, field: string): string | undefined {
  const relation = Object.values(registry.require('tickets').relations).find(
    (r) => r.kind === 'belongsTo' && r.key === field,
  );
  return relation?.kind === 'belongsTo' ? relation.resource : undefined;
}

async function checkSet(
  db: Db | DbTransaction,
  registry: Registry,
  auth: AuthContext,
  action: Record<string, unknown>,
  key: string,
  errors: Errors,
): Promise<void> {
  const field = action.field;
  if (typeof field !== 'string' || field === '') {
    errors[`${key}.field`] = [serverText('field_required', { field: 'field' })];
    return;
  }
  const value = action.value;
  if (field.startsWith(CUSTOM_FIELD_PREFIX)) {
    const name = field.slice(CUSTOM_FIELD_PREFIX.length);
    const known = (await db
      .selectFrom('custom_fields')
      .select(['id', 'name', 'title', 'type', 'options', 'is_required'])
      .where('tenant_id', '=', auth.tenantId)
      .where('morphable_type', '=', registry.require('tickets').morphType ?? 'ticket')
      .where('name', '=', name)
      .executeTakeFirst()) as Definition | undefined;
    if (!known) errors[`${key}.field`] = [serverText('custom_field_unknown', { name: name.slice(0, 100) })];
    else if (value !== null && typeof value !== 'string')
      errors[`${key}.value`] = [serverText('value_not_text', { field: name.slice(0, 100) })];
    // As a form's value is checked (an option of a select, a date): else the rule would fail each run.
    else if (typeof value === 'string' && value.trim() !== '' && problemWith(known, value))
      errors[`${key}.value`] = [problemWith(known, value)!];
    return;
  }
  if (!(SETTABLE_FIELDS as readonly string[]).includes(field)) {
    errors[`${key}.field`] = [serverText('automation_field_not_settable', { name: field.slice(0, 100) })];
    return;
  }
  const ticketField = registry.require('tickets').fields[field];
  if (value === null) {
    if (!ticketField?.nullable) errors[`${key}.value`] = [serverText('field_required', { field })];
    return;
  }
  const target = referenced(registry, field);
  if (!positiveId(value) || !target || !(await exists(db, registry, auth, target, value)))
    errors[`${key}.value`] = [serverText('selected_invalid', { field })];
}

async function checkRecipients(
  db: Db | DbTransaction,
  registry: Registry,
  auth: AuthContext,
  to: unknown,
  key: string,
  errors: Errors,
): Promise<void> {
  if (to === 'assigned') return;
  // By hand: `group` waits for ticket groups with members (they have none: sla/warnings.ts says so too).
  if (to === 'group') {
    errors[`${key}.to`] = [serverText('value_invalid')];
    return;
  }
  const ids = isObject(to) ? to.operator_ids : undefined;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 50 || !ids.every(positiveId)) {
    errors[`${key}.to`] = [serverText('value_invalid')];
    return;
  }
  for (const [i, id] of ids.entries())
    if (!(await exists(db, registry, auth, 'operators', id)))
      errors[`${key}.to.operator_ids.${i}`] = [serverText('selected_invalid', { field: 'operator_ids' })];
}

/** A `log_time` action's minutes and description. */
function checkLogTime(action: Record<string, unknown>, key: string, errors: Errors): void {
  const minutes = action.minutes;
  if (
    typeof minutes !== 'number' ||
    !Number.isInteger(minutes) ||
    minutes < 1 ||
    minutes > MAX_LOGGED_MINUTES
  )
    errors[`${key}.minutes`] = [serverText('automation_minutes_invalid', { max: MAX_LOGGED_MINUTES })];
  const description = action.description;
  if (description !== undefined && description !== null && typeof description !== 'string')
    errors[`${key}.description`] = [serverText('value_not_text', { field: 'description' })];
  else if (typeof description === 'string' && description.length > MAX_LOGGED_DESCRIPTION)
    errors[`${key}.description`] = [
      serverText('value_too_long', { field: 'description', max: MAX_LOGGED_DESCRIPTION }),
    ];
}

/**
 * The action list, checked; a 422 naming each wrong part otherwise. `permissions`: the user must hold
 * each action's permission (a rule is saved by someone who could take its actions by hand). `person`:
 * the list is applied by a person (a macro), so it may hold the person-only types (log_time).
 */
export async function checkActions(
  db: Db | DbTransaction,
  registry: Registry,
  auth: AuthContext,
  raw: unknown,
  options: { key?: string; permissions?: boolean; person?: boolean } = {},
): Promise<AutomationAction[]> {
  const base = options.key ?? 'actions';
  const errors: Errors = {};
  if (!Array.isArray(raw)) throw new ValidationError({ [base]: [serverText('value_invalid')] });
  if (raw.length > MAX_ACTIONS)
    throw new ValidationError({
      [base]: [serverText('automation_too_many_actions', { count: MAX_ACTIONS })],
    });
  for (const [i, action] of raw.entries()) {
    const key = `${base}.${i}`;
    if (!isObject(action) || !RUNNABLE_TYPES.includes(action.type as AutomationActionType)) {
      errors[`${key}.type`] = [
        serverText('automation_action_unknown', { actions: RUNNABLE_TYPES.join(', ') }),
      ];
      continue;
    }
    const type = action.type as AutomationActionType;
    if (!options.person && PERSON_ACTION_TYPES.includes(type)) {
      errors[`${key}.type`] = [serverText('automation_action_person_only', { name: type })];
      continue;
    }
    if (options.permissions && !auth.permissions.has(ACTION_PERMISSION[type])) {
      errors[key] = [serverText('automation_action_not_allowed', { name: type })];
      continue;
    }
    if (type === 'set') await checkSet(db, registry, auth, action, key, errors);
    else if (type === 'log_time') checkLogTime(action, key, errors);
    else if (type === 'note') {
      if (!text(action.body)) errors[`${key}.body`] = [serverText('field_required', { field: 'body' })];
    } else if (type === 'notify') {
      if (typeof action.text === 'string' && action.text.length > MAX_NOTIFY_TEXT)
        errors[`${key}.text`] = [serverText('value_too_long', { field: 'text', max: MAX_NOTIFY_TEXT })];
      else if (!text(action.text, MAX_NOTIFY_TEXT))
        errors[`${key}.text`] = [serverText('field_required', { field: 'text' })];
      await checkRecipients(db, registry, auth, action.to, key, errors);
    } else {
      const answer = action.standard_answer_id;
      if (!positiveId(answer) || !(await exists(db, registry, auth, 'standard-answers', answer)))
        errors[`${key}.standard_answer_id`] = [
          serverText('selected_invalid', { field: 'standard_answer_id' }),
        ];
      if (type === 'mail_operators') await checkRecipients(db, registry, auth, action.to, key, errors);
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return raw as AutomationAction[];
}
