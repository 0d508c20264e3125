/**
 * The override flag as the ticket actions take it in their bodies (POST tickets/{id}/close, the bulk
 * call): `override_checklist: true` closes a ticket whose required checklist items are open, for a role
 * with `tenant.checklist-items.override` (closing.ts). The edit takes it as an x-flag of tickets.
 */
import type { Schema } from '../../docs/refs.ts';
import { OVERRIDE_FLAG } from './closing.ts';

export const OVERRIDE_PROPERTY: Schema = {
  type: 'boolean',
  description:
    'Close even while required checklist items are open (permission `tenant.checklist-items.override`); ' +
    "recorded in the ticket's history.",
};

/** The close action's body: nothing, or the override flag. */
export const OVERRIDE_BODY: Schema = {
  type: ['object', 'null'],
  properties: { [OVERRIDE_FLAG]: OVERRIDE_PROPERTY },
  additionalProperties: false,
};

/** Whether a (checked) body asks to override. */
export const overrides = (body: unknown): boolean =>
  !!body && typeof body === 'object' && (body as Record<string, unknown>)[OVERRIDE_FLAG] === true;
