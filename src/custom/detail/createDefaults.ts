/**
 * What a new record's form starts with (schemas/README.md, `x-default`): `"me"` is the signed-in user's
 * id (the operator booking time), `"now"` the current moment as a date-time picker's value. The values a
 * link brings along (a ticket's tab pre-fills its ticket) come on top, through react-admin's location
 * state.
 */
import type { Resource } from '../../../common/schema/types.ts';
import { pickerValue } from '../../../common/format.ts';

export type CreateDefault = 'me' | 'now';

export function createDefaults(
  resource: Resource,
  userId: number | undefined,
  now: Date = new Date(),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of Object.values(resource.fields)) {
    const kind = field.schema['x-default'] as CreateDefault | undefined;
    if (kind === 'me' && userId !== undefined) out[field.name] = userId;
    if (kind === 'now') out[field.name] = pickerValue(now);
    // JSON Schema's own `default` (the column's default, such as a mailbox's port 993): shown, not hidden.
    else if (kind === undefined && field.schema.default !== undefined && !field.readOnly)
      out[field.name] = field.schema.default;
  }
  return out;
}

/** The location state of a link to a create form: the values it pre-fills and where saving returns to. */
export interface CreateLinkState {
  record: Record<string, unknown>;
  /** A path inside the app (the record whose tab the link was on); never taken from the address bar. */
  returnTo?: string;
  /** The tab of that record to open again. */
  returnTab?: string;
}

/** The location state of a record's detail opened on one of its tabs. */
export interface DetailLinkState {
  tab?: string;
}
