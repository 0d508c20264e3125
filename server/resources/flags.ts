/**
 * A resource's x-flags (schemas/README.md): boolean words of an update's body that are no field, for
 * the resource's own rules about this one change (a ticket closed with open required checklist items,
 * `override_checklist`). Taken out of the body before its fields are checked, as `custom_fields` is.
 */
import { ValidationError } from '../http/errors.ts';
import type { Resource } from '../../common/schema/types.ts';
import { serverText } from '../../common/server-texts.ts';

export function takeFlags(
  resource: Resource,
  body: unknown,
): { body: unknown; flags: Record<string, boolean> } {
  const names = Object.keys(resource.flags);
  if (!names.length || !body || typeof body !== 'object' || Array.isArray(body)) return { body, flags: {} };
  const rest: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  const flags: Record<string, boolean> = {};
  const errors: Record<string, string[]> = {};
  for (const name of names) {
    if (!(name in rest)) continue;
    const value = rest[name];
    delete rest[name];
    if (typeof value === 'boolean') flags[name] = value;
    else errors[name] = [serverText('flag_not_boolean', { field: name })];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { body: rest, flags };
}
