/**
 * Runs an action list (common/automation/actions.ts) on tickets, for a rule or for a user (a macro).
 *
 * - A rule acts as the desk: no permission is checked when it runs (its saver's were, at save), and the
 *   history names the rule (ticket_changes.rule_id), not a person.
 * - A user acts as themself: each action needs the permission of doing it by hand (403 naming the
 *   action), the list is checked against the tenant's data first (422 naming the part), and the history
 *   names the user.
 *
 * `set` goes through the tickets' own change path (tickets/change.ts: history, status message, SLA
 * clocks, live streams, the new operator told), the same as the bulk bar; a custom field through the
 * custom values' writer, with its own history entry (custom-field-action.ts). A `note` is an internal
 * message, a `reply` a message to the client from a standard answer, mailed as an operator's reply is
 * (messages/actions.ts's queueMail), `mail_operators` a mail from a standard answer to operators,
 * `log_time` (a macro's only) a time registration by the user (log-time-action.ts). Messages a rule
 * writes are no event of their own (the rule would be answering itself); its field changes are
 * (triggers.ts).
 */
import type { AuthContext } from '../auth/context.ts';
import { systemContext } from '../auth/context.ts';
import type { DbTransaction } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { sanitizeMessage } from '../html/sanitize.ts';
import { enqueueMail } from '../mail/enqueue.ts';
import type { Registry } from '../schema/registry.ts';
import { queueMail } from '../resources/messages/actions.ts';
import { defaultAddress } from '../resources/messages/recipients.ts';
import { messageStored, notify } from '../resources/notifications/notify.ts';
import { changeTickets, type ColumnChange } from '../resources/tickets/change.ts';
import { keepStoredMessageClock } from '../sla/keep.ts';
import { STORED_MESSAGE_COLUMNS } from '../resources/messages/stored.ts';
import {
  CUSTOM_FIELD_PREFIX,
  type AutomationAction,
  type OperatorRecipients,
} from '../../common/automation/actions.ts';
import { serverText } from '../../common/server-texts.ts';
import { answerValues } from './answer-values.ts';
import { fillPlaceholders } from '../../common/standard-answers/placeholders.ts';
import { ACTION_PERMISSION, checkActions } from './check-actions.ts';
import { setCustomField } from './custom-field-action.ts';
import { logTime } from './log-time-action.ts';

/** Who runs the actions: a rule (the desk) or a signed-in user (a macro). */
export type Actor = { kind: 'rule'; ruleId: number; name: string } | { kind: 'user'; auth: AuthContext };

/** What one action did on one ticket, for the run log and the caller. */
export interface ActionEffect {
  ticketId: number;
  action: number;
  type: AutomationAction['type'];
  field?: string;
  from?: unknown;
  to?: unknown;
  messageId?: number;
  mailed?: boolean;
  /** notify: how many operators were told. */
  notified?: number;
  /** log_time: the time registration made. */
  timeRegistrationId?: number;
}

const fieldChanges = (index: number, changes: ColumnChange[]): ActionEffect[] =>
  changes.map((c) => ({
    ticketId: c.ticketId,
    action: index,
    type: 'set',
    field: c.column,
    from: c.from,
    to: c.to,
  }));

async function standardAnswer(trx: DbTransaction, tenantId: number, id: number) {
  return trx
    .selectFrom('standard_answers')
    .select(['title', 'body'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** A message in the ticket's thread, told to the streams and the SLA clock as any new message is. */
async function addMessage(
  trx: DbTransaction,
  auth: AuthContext,
  ticketId: number,
  html: string,
  /** A reply: seen by the client in the portal, and mailed to `to` when the ticket has an address. */
  reply: { to: string | undefined } | null,
): Promise<number> {
  const row = await trx
    .insertInto('messages')
    .values({
      tenant_id: auth.tenantId,
      message: sanitizeMessage(html),
      is_from_client: false,
      visible_to_client: reply !== null,
      send_to_client: reply?.to !== undefined,
      to: JSON.stringify(reply?.to ? [reply.to] : []),
      morphable_type: 'ticket',
      morphable_id: ticketId,
      actor_id: auth.userId,
    })
    .returning(STORED_MESSAGE_COLUMNS)
    .executeTakeFirstOrThrow();
  await messageStored(trx, auth, row);
  await keepStoredMessageClock(trx, auth.tenantId, row);
  return Number(row.id);
}

/** The active operators an action names: the ticket's operator, or named ones. */
async function operatorRecipients(
  trx: DbTransaction,
  tenantId: number,
  ticketId: number,
  to: OperatorRecipients,
): Promise<{ id: number; email: string | null }[]> {
  let ids: number[];
  if (typeof to === 'object') ids = to.operator_ids;
  else if (to === 'group')
    ids = []; // ticket groups have no members (yet): check-actions refuses it
  else {
    const ticket = await trx
      .selectFrom('tickets')
      .select('operator_id')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', ticketId)
      .executeTakeFirstOrThrow();
    ids = ticket.operator_id === null ? [] : [ticket.operator_id];
  }
  if (ids.length === 0) return [];
  const rows = await trx
    .selectFrom('users')
    .select(['id', 'email'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', ids)
    .where('is_operator', '>', 0)
    .where('archived_at', 'is', null)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), email: r.email }));
}

/** The operators' addresses a mail goes to. */
async function operatorAddresses(
  trx: DbTransaction,
  tenantId: number,
  ticketId: number,
  to: OperatorRecipients,
): Promise<string[]> {
  return (await operatorRecipients(trx, tenantId, ticketId, to))
    .map((r) => r.email)
    .filter((e): e is string => typeof e === 'string' && e !== '');
}

async function runOne(
  trx: DbTransaction,
  registry: Registry,
  auth: AuthContext,
  by: { ruleId?: number },
  ticketIds: number[],
  action: AutomationAction,
  index: number,
): Promise<ActionEffect[]> {
  const tickets = registry.require('tickets');
  switch (action.type) {
    case 'set': {
      if (action.field.startsWith(CUSTOM_FIELD_PREFIX)) {
        const name = action.field.slice(CUSTOM_FIELD_PREFIX.length);
        await setCustomField(trx, registry, auth, tickets, ticketIds, name, action.value, by);
        return ticketIds.map((ticketId) => ({ ticketId, action: index, type: 'set', field: action.field }));
      }
      const column = tickets.fields[action.field]!.column;
      const changes = await changeTickets(
        trx,
        registry,
        auth,
        tickets,
        ticketIds,
        { [column]: action.value },
        by,
      );
      return fieldChanges(index, changes);
    }
    case 'note': {
      const effects: ActionEffect[] = [];
      for (const ticketId of ticketIds)
        effects.push({
          ticketId,
          action: index,
          type: 'note',
          messageId: await addMessage(trx, auth, ticketId, action.body, null),
        });
      return effects;
    }
    case 'reply': {
      const answer = await standardAnswer(trx, auth.tenantId, action.standard_answer_id);
      const effects: ActionEffect[] = [];
      for (const ticketId of ticketIds) {
        const address = await defaultAddress(trx, auth.tenantId, {
          type: 'ticket',
          table: tickets.table,
          id: ticketId,
        });
        // Its placeholders filled as the editor fills them when an operator inserts the answer.
        const values = await answerValues(trx, auth.tenantId, ticketId, auth.userId);
        const messageId = await addMessage(trx, auth, ticketId, fillPlaceholders(answer.body, values), {
          to: address ?? undefined,
        });
        if (address)
          await queueMail(
            trx,
            auth.tenantId,
            messageId,
            { type: 'ticket', resource: tickets, id: ticketId },
            { to: [address], cc: [], bcc: [] },
          );
        effects.push({ ticketId, action: index, type: 'reply', messageId, mailed: address !== undefined });
      }
      return effects;
    }
    case 'mail_operators': {
      const answer = await standardAnswer(trx, auth.tenantId, action.standard_answer_id);
      const effects: ActionEffect[] = [];
      for (const ticketId of ticketIds) {
        const to = await operatorAddresses(trx, auth.tenantId, ticketId, action.to);
        const html = sanitizeMessage(answer.body);
        if (to.length > 0)
          await enqueueMail(
            trx,
            { to, subject: answer.title, html, text: html.replace(/<[^>]*>/g, ' ') },
            { tenantId: auth.tenantId, source: 'automation', sourceId: ticketId },
          );
        effects.push({ ticketId, action: index, type: 'mail_operators', mailed: to.length > 0 });
      }
      return effects;
    }
    case 'notify': {
      // An in-app notification of the kind `automation` with the rule's own words; mailed too to whoever
      // chose mail for that kind, as every kind is (notify.ts).
      const effects: ActionEffect[] = [];
      for (const ticketId of ticketIds) {
        const to = await operatorRecipients(trx, auth.tenantId, ticketId, action.to);
        const made = await notify(
          trx,
          to.map((r) => ({
            tenantId: auth.tenantId,
            userId: r.id,
            kind: 'automation' as const,
            ticketId,
            actorId: auth.userId,
            text: action.text,
          })),
        );
        effects.push({ ticketId, action: index, type: 'notify', notified: made });
      }
      return effects;
    }
    case 'log_time': {
      const ids = await logTime(trx, registry, auth, ticketIds, action.minutes, action.description ?? null);
      return ticketIds.map((ticketId, i) => ({
        ticketId,
        action: index,
        type: 'log_time',
        timeRegistrationId: ids[i],
      }));
    }
  }
}

/**
 * Runs `actions` in order on the tickets `ticketIds` (of the actor's tenant; the caller has checked that
 * the actor may see them), in the caller's transaction. Answers what each action did.
 */
export async function runActions(
  trx: DbTransaction,
  registry: Registry,
  tenantId: number,
  actor: Actor,
  ticketIds: number[],
  actions: readonly AutomationAction[],
): Promise<ActionEffect[]> {
  const auth = actor.kind === 'user' ? actor.auth : systemContext(tenantId);
  if (actor.kind === 'user') {
    actions.forEach((action, i) => {
      if (!auth.permissions.has(ACTION_PERMISSION[action.type]))
        throw new HttpError(403, serverText('automation_action_not_allowed', { name: action.type }), {
          [`actions.${i}`]: [serverText('automation_action_not_allowed', { name: action.type })],
        });
    });
    // A user applies the list: person-only actions (log_time) are theirs to take.
    await checkActions(trx, registry, auth, actions, { person: true });
  }
  const by = actor.kind === 'rule' ? { ruleId: actor.ruleId } : {};
  const effects: ActionEffect[] = [];
  for (const [i, action] of actions.entries())
    effects.push(...(await runOne(trx, registry, auth, by, ticketIds, action, i)));
  return effects;
}
