/**
 * The placeholders of a standard answer (issue 18, item 6): `{{client.name}}`, `{{ticket.reference}}`,
 * `{{ticket.description}}`, `{{company.name}}` and `{{operator.name}}`, filled in when an answer is
 * inserted into the message editor (src/custom/thread/placeholders.ts) and when a macro or a rule
 * replies with one (server/automation/run-actions.ts). Values go in as text: they are HTML-escaped
 * before they replace the placeholder in the answer's HTML, so a client called `<b>Jan</b>` stays that
 * text. A placeholder without a value (unknown, or empty on this record) stays as written. The pattern
 * is linear: a name of word characters and dots between braces, no nested repetition.
 */

export type PlaceholderValues = Record<string, string>;

/** The placeholder names that are filled in; the schema's form help lists the same names. */
export const PLACEHOLDERS = [
  'client.name',
  'ticket.reference',
  'ticket.description',
  'company.name',
  'operator.name',
] as const;

/** A value as a placeholder takes it: a non-blank text or a number, else none. */
export const placeholderText = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== ''
    ? value
    : typeof value === 'number'
      ? String(value)
      : undefined;

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\}\}/g;

/** The answer's HTML with each known placeholder replaced by its escaped value. */
export function fillPlaceholders(html: string, values: PlaceholderValues): string {
  return html.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(values, name) ? escapeHtml(values[name]!) : whole,
  );
}
