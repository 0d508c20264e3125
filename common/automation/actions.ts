/**
 * The action language of the desk's automation (issue 37): what a trigger, a time-based rule and a
 * macro do to a ticket, as stored in their `actions` field (a JSON array, run in order). One language
 * for all three, so an operator who can read a macro can read a rule. This module is the shape only;
 * checking a list against the tenant's data and running it live on the server (server/automation/).
 */

/** The ticket fields an action may set (besides custom fields, named `custom_fields.<name>`). */
export const SETTABLE_FIELDS = [
  'status_id',
  'priority_id',
  'operator_id',
  'ticket_group_id',
  'ticket_type_id',
  'sla_id',
] as const;

export type SettableField = (typeof SETTABLE_FIELDS)[number];

/** A custom field of tickets, by its name: `custom_fields.<name>`. */
export const CUSTOM_FIELD_PREFIX = 'custom_fields.';

/** Who a mail or a notification to operators goes to. */
export type OperatorRecipients = 'assigned' | 'group' | { operator_ids: number[] };

export type AutomationAction =
  /** Sets a field of the ticket (null clears it where the field may be empty). */
  | { type: 'set'; field: SettableField | `custom_fields.${string}`; value: string | number | boolean | null }
  /** An internal note in the ticket's thread, which clients never see. */
  | { type: 'note'; body: string }
  /** A message to the client in the ticket's thread from a standard answer, mailed like any reply. */
  | { type: 'reply'; standard_answer_id: number }
  /** A mail to operators from a standard answer (not in the thread). */
  | { type: 'mail_operators'; standard_answer_id: number; to: OperatorRecipients }
  /** An in-app notification to operators. */
  | { type: 'notify'; to: OperatorRecipients; text: string }
  /**
   * Time logged on the ticket by the person who applies the list (a macro's only: a rule acts for no
   * one to log time for): `minutes` of work, with an optional description.
   */
  | { type: 'log_time'; minutes: number; description?: string | null };

export type AutomationActionType = AutomationAction['type'];

export const ACTION_TYPES: readonly AutomationActionType[] = [
  'set',
  'note',
  'reply',
  'mail_operators',
  'notify',
  'log_time',
];

/**
 * The types only a person's list may hold: a macro's, whose actions field says so (`x-person-actions`),
 * never a rule's.
 */
export const PERSON_ACTION_TYPES: readonly AutomationActionType[] = ['log_time'];

/** The most minutes one `log_time` action logs: a working day and a half. */
export const MAX_LOGGED_MINUTES = 720;
/** The longest description of logged time (a time registration's own limit). */
export const MAX_LOGGED_DESCRIPTION = 2000;

/** At most this many actions in one rule or macro. */
export const MAX_ACTIONS = 20;
