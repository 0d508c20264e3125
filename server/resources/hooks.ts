/**
 * What a schema cannot say, per resource, in one table. Each entry lives in its resource's folder;
 * the generic routes call them at fixed moments and know no resource by name.
 */
import type { Kysely, Transaction } from 'kysely';
import type { AuthContext } from '../auth/context.ts';
import type { Resource } from '../../common/schema/types.ts';
import type { Registry } from '../schema/registry.ts';
import type { Row } from '../query/relations.ts';
import { ticketHooks } from './tickets/hooks.ts';
import { oneDefault } from './one-default.ts';
import { quoteHooks, quoteLineHooks } from './quotes/hooks.ts';
import { messageHooks } from './messages/hooks.ts';
import { attachmentHooks } from './attachments/hooks.ts';
import { roleAssignment } from './roles/assignment.ts';
import { roleHooks } from './roles/hooks.ts';
import { userConfigHooks } from './user-configs/hooks.ts';
import { timeRegistrationHooks } from './time-registrations/hooks.ts';

export interface HookContext {
  trx: Transaction<any>;
  auth: AuthContext;
  resource: Resource;
}

/** What `present` gets: the rows' reader and a handle to read more (the request's transaction, if any). */
export interface PresentContext {
  db: Kysely<any> | Transaction<any>;
  auth: AuthContext;
  resource: Resource;
  registry: Registry;
}

export interface ResourceHooks {
  /** Adjust the columns about to be inserted (values are already validated). */
  beforeStore?(row: Record<string, unknown>, ctx: HookContext): Promise<void> | void;
  /** Runs in the same transaction, right after the insert. */
  afterStore?(id: number, ctx: HookContext): Promise<void> | void;
  beforeUpdate?(id: number, changes: Record<string, unknown>, ctx: HookContext): Promise<void> | void;
  /** Runs in the same transaction, right after the update. */
  afterUpdate?(id: number, ctx: HookContext): Promise<void> | void;
  /** Runs in the delete's transaction, before the row goes; throwing stops the delete. */
  beforeDestroy?(id: number, ctx: HookContext): Promise<void> | void;
  /**
   * Adds to rows about to be answered what the schema cannot say (computed fields). Runs on every
   * row read of the resource, top level or loaded through `with`, after the caller's filters.
   */
  present?(rows: Row[], ctx: PresentContext): Promise<void> | void;
}

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
};
