/**
 * The create-message call (SPEC 7) as one typed value, from a multipart form or from JSON:
 * the message's own fields (validated later against the schema by the generic store), plus
 * `attachment_ids` (uploads to link), `action` (`send_from_portal` plus an optional suffix) and the
 * files. Every name is checked against the schema's fields: a form cannot reach a column the schema
 * does not list.
 *
 * Clients (the portal) may send only what a client writes: the text, a description and the record it
 * is on; `is_from_client` and `visible_to_client` may be sent only as true (decisions.md: a client
 * asking for a hidden message gets a 422, not a silently different message); operator-only fields
 * are accepted only when empty, since the shared form may send them blank.
 */
import type { AuthContext } from '../../auth/context.ts';
import type { Field, Resource } from '../../../common/schema/types.ts';
import { ValidationError } from '../../http/errors.ts';
import { baseFieldName, formBoolean, formInteger } from '../../http/form-values.ts';
import { isPortalCaller } from '../../query/visibility.ts';

export interface MessageForm {
  /** Fields of the messages schema, typed as JSON would carry them. */
  record: Record<string, unknown>;
  attachmentIds: number[];
  action: string | null;
}

const EXTRA = new Set(['attachment_ids', 'action']);
const CLIENT_FIELDS = new Set(['message', 'description', 'morphable_type', 'morphable_id']);
const CLIENT_TRUE_ONLY = new Set(['is_from_client', 'visible_to_client']);
const ACTION = /^send_from_portal(?:[_-][A-Za-z0-9_-]{1,50})?$/;
const MAX_IDS = 50;

/** Multipart values (always text) converted to the field's type; JSON values pass as they are. */
function fromText(field: Field | undefined, values: string[], listed: boolean): unknown {
  if (!field) return listed ? values : values[values.length - 1];
  if (field.type === 'array') return values.filter((v) => v !== '');
  const value = values[values.length - 1]!;
  if (value === '' && field.nullable) return null;
  switch (field.type) {
    case 'boolean': {
      const b = formBoolean(value, field.name);
      return typeof b === 'object' ? value : b;
    }
    case 'integer': {
      const n = formInteger(value, field.name);
      return typeof n === 'object' ? value : n;
    }
    case 'object':
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    default:
      return value;
  }
}

/** The form's text fields by base name (`to[]`, `to[0]` and `to` are one list). */
export function formFields(resource: Resource, fields: Map<string, string[]>): Record<string, unknown> {
  const grouped = new Map<string, { values: string[]; listed: boolean }>();
  for (const [name, values] of fields) {
    const base = baseFieldName(name);
    const entry = grouped.get(base) ?? { values: [], listed: false };
    entry.values.push(...values);
    entry.listed ||= base !== name || base === 'attachment_ids';
    grouped.set(base, entry);
  }
  const out: Record<string, unknown> = {};
  for (const [name, { values, listed }] of grouped) {
    const field = Object.hasOwn(resource.fields, name) ? resource.fields[name] : undefined;
    out[name] = fromText(field, values, listed);
  }
  return out;
}

const isEmpty = (v: unknown) =>
  v === null || v === undefined || v === false || v === '' || (Array.isArray(v) && v.length === 0);

function attachmentIds(value: unknown, errors: Record<string, string[]>): number[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.length > MAX_IDS) {
    errors.attachment_ids = [`At most ${MAX_IDS} attachments can be linked at once.`];
    return [];
  }
  const ids: number[] = [];
  list.forEach((raw, i) => {
    const id = formInteger(raw, `attachment_ids.${i}`);
    if (typeof id === 'object') (errors[`attachment_ids.${i}`] ??= []).push(id.error);
    else ids.push(id);
  });
  return [...new Set(ids)];
}

/** Splits and checks a create-message body (already typed); 422 with every problem at once. */
export function readMessageForm(body: unknown, auth: AuthContext): MessageForm {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError({ body: ['The request body must be a JSON object or a multipart form.'] });
  }
  const errors: Record<string, string[]> = {};
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
        errors[name] = [
          name === 'visible_to_client'
            ? 'A message from the portal is always visible to the client.'
            : 'A message from the portal is always from the client.',
        ];
      }
    } else if (!isEmpty(value)) {
      errors[name.slice(0, 60)] = [
        `The field ${JSON.stringify(name).slice(0, 60)} cannot be set from the portal.`,
      ];
    }
  }
  if (portal) record.is_from_client = true;

  const ids = attachmentIds(input.attachment_ids, errors);
  let action: string | null = null;
  if (input.action !== undefined && input.action !== null && input.action !== '') {
    if (typeof input.action !== 'string' || !ACTION.test(input.action)) {
      errors.action = ['The action must be send_from_portal, optionally followed by a suffix.'];
    } else action = input.action;
  }
  if (!portal && record.send_to_client === true) {
    if (record.visible_to_client === false) {
      errors.visible_to_client = ['A message sent to the client must be visible to the client.'];
    }
    record.visible_to_client = true;
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { record, attachmentIds: ids, action };
}
