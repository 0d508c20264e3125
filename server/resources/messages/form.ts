/**
 * The create-message call (SPEC 7) as one typed value, from a multipart form (its values typed by the
 * route's form schema, server/http/form-body.ts) or from JSON: the message's own fields (stored through
 * the generic store, which checks them for the caller's side), plus `attachment_ids` (uploads to link)
 * and `action`, which the route's schema checks.
 *
 * Clients (the portal) may send only what a client writes: the text, a description and the record it
 * is on; `is_from_client` and `visible_to_client` may be sent only as true (decisions.md: a client
 * asking for a hidden message gets a 422, not a silently different message); operator-only fields
 * are accepted only when empty, since the shared form may send them blank.
 */
import type { AuthContext } from '../../auth/context.ts';
import { ValidationError } from '../../http/errors.ts';
import { isPortalCaller } from '../../query/visibility.ts';
import { NOT_A_BODY } from './openapi.ts';

export interface MessageForm {
  /** Fields of the messages schema, typed as JSON would carry them. */
  record: Record<string, unknown>;
  attachmentIds: number[];
  /** The lines of the caller's rules below, for the route's 422 (server/http/route-validation.ts). */
  byHand: Record<string, string[]>;
}

const EXTRA = new Set(['attachment_ids', 'action', 'file']);
const CLIENT_FIELDS = new Set(['message', 'description', 'morphable_type', 'morphable_id']);
const CLIENT_TRUE_ONLY = new Set(['is_from_client', 'visible_to_client']);

const isEmpty = (v: unknown) =>
  v === null || v === undefined || v === false || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * Splits a create-message body (JSON, or a form's values typed by its schema) into the message and the
 * call's own fields, with the lines of the rules that depend on the caller, which the route's schema
 * (an operator's body) cannot say. The schema judges the values; what is taken here is used only once
 * it has.
 */
export function readMessageForm(body: unknown, auth: AuthContext): MessageForm {
  // No body at all (no content type), or JSON that is no object: nothing the schema was asked about.
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError({ body: [NOT_A_BODY] });
  }
  const byHand: Record<string, string[]> = {};
  const record: Record<string, unknown> = {};
  const input = body as Record<string, unknown>;
  const portal = isPortalCaller(auth);
  for (const [name, value] of Object.entries(input)) {
    if (EXTRA.has(name)) continue;
    if (!portal) {
      record[name] = value;
      continue;
    }
    if (CLIENT_FIELDS.has(name)) record[name] = value;
    else if (CLIENT_TRUE_ONLY.has(name)) {
      if (value !== true) {
        byHand[name] = [
          name === 'visible_to_client'
            ? 'A message from the portal is always visible to the client.'
            : 'A message from the portal is always from the client.',
        ];
      }
    } else if (!isEmpty(value)) {
      byHand[name.slice(0, 60)] = [
        `The field ${JSON.stringify(name).slice(0, 60)} cannot be set from the portal.`,
      ];
    }
  }
  if (portal) record.is_from_client = true;
  // An operator's message sent to the client is visible to the client (the schema refuses a false).
  if (!portal && record.send_to_client === true) record.visible_to_client = true;
  const ids = Array.isArray(input.attachment_ids) ? (input.attachment_ids as unknown[]) : [];
  const attachmentIds = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  return { record, attachmentIds, byHand };
}
