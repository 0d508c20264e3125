/**
 * What a schema cannot say, per resource, in one table. Each entry lives in its resource's folder;
 * the generic routes call them at fixed moments and know no resource by name. The hooks' types are in
 * hook-contract.ts.
 */
import type { RowPresenter } from '../query/relations.ts';
import type { PresentColumns } from '../query/sql.ts';
import type { ResourceHooks } from './hook-contract.ts';
import { ticketHooks } from './tickets/hooks.ts';
import { oneDefault } from './one-default.ts';
import { quoteHooks, quoteLineHooks } from './quotes/hooks.ts';
import { messageHooks } from './messages/hooks.ts';
import { attachmentHooks } from './attachments/hooks.ts';
import { roleAssignment } from './roles/assignment.ts';
import { roleHooks } from './roles/hooks.ts';
import { userConfigHooks } from './user-configs/hooks.ts';
import { timeRegistrationHooks } from './time-registrations/hooks.ts';
import { ticketChangeHooks } from './ticket-changes/hooks.ts';
import { standardAnswerHooks } from './standard-answers/hooks.ts';
import { mailboxHooks } from './mailboxes/hooks.ts';

export const resourceHooks: Record<string, ResourceHooks> = {
  tickets: ticketHooks,
  'ticket-templates': ticketHooks,
  quotes: quoteHooks,
  'quote-lines': quoteLineHooks,
  // SPEC 4: only one view may be default; making one default clears the others (per user and list).
  'table-presets': oneDefault('is_default', ['user_id', 'type']),
  'settings-views': oneDefault('is_default', ['user_id', 'type']),
  messages: messageHooks,
  attachments: attachmentHooks,
  clients: roleAssignment(false),
  operators: roleAssignment(true),
  roles: roleHooks,
  'user-configs': userConfigHooks,
  'time-registrations': timeRegistrationHooks,
  'ticket-changes': ticketChangeHooks,
  'standard-answers': standardAnswerHooks,
  mailboxes: mailboxHooks,
};

/** The query builder's presenter (server/query/relations.ts): each resource's own `present` hook. */
export const presentRows: RowPresenter = (rows, ctx) =>
  resourceHooks[ctx.resource.name]?.present?.(rows, ctx);

/** The columns the presenters read, selected with the rows (server/query/sql.ts `PresentColumns`). */
export const presentColumns: PresentColumns = (resource, alias, ctx) =>
  resourceHooks[resource.name]?.presentColumns?.(alias, ctx) ?? [];
