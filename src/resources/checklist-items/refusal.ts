/**
 * Whether a failed close was refused for open required checklist items (server: checklist-items/
 * closing.ts), and its line as the user reads it. The apps' error catalogue has said the server's text in
 * the user's language by the time a caller sees the error (shell/errors.ts shapeError), so the line is
 * recognised by that language's words around the count, not by the server's English.
 */
import type { TranslateFunction } from 'react-admin';
import { statusOf } from '../../shell/errors.ts';

const MARK = '\u0000';

export function checklistRefusal(error: unknown, translate: TranslateFunction): string | null {
  if (statusOf(error) !== 422) return null;
  const errors = (error as { body?: { errors?: Record<string, unknown> } }).body?.errors;
  const line = errors?.status_id;
  if (typeof line !== 'string' && !Array.isArray(line)) return null;
  const text = String(Array.isArray(line) ? line[0] : line);
  const [before = '', after = ''] = translate('app.server.checklist_required_open', { count: MARK }).split(
    MARK,
  );
  return text.length > before.length + after.length && text.startsWith(before) && text.endsWith(after)
    ? text
    : null;
}
