/**
 * Rich text is a schema word (issue 34): a string field with `"format": "html"` holds HTML that the
 * server cleans with the messages' allow list (sanitize.ts) on every create and update, whichever
 * resource it is on (a message's body, a standard answer's, a new resource's). A value with nothing
 * left to keep is a 422 where the field may not be empty (`minLength` of 1 or more).
 */
import type { Resource } from '../../common/schema/types.ts';
import { serverText } from '../../common/server-texts.ts';
import { ValidationError } from '../http/errors.ts';
import { sanitizeMessage } from './sanitize.ts';

/** The format that makes a string field sanitised rich text. */
export const RICH_TEXT_FORMAT = 'html';

/** `data` (checked body values by field) with each rich-text field's HTML sanitised. */
export function sanitizeRichText(resource: Resource, data: Record<string, unknown>): Record<string, unknown> {
  let out = data;
  for (const [name, value] of Object.entries(data)) {
    const field = resource.fields[name];
    if (field?.format !== RICH_TEXT_FORMAT || typeof value !== 'string') continue;
    const clean = sanitizeMessage(value, name);
    if (clean === '' && Number(field.schema.minLength ?? 0) > 0)
      throw new ValidationError({ [name]: [serverText('field_required', { field: name })] });
    out = { ...out, [name]: clean };
  }
  return out;
}
