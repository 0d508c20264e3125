/**
 * The placeholders of a standard answer (issue 18, item 6): `{{client.name}}`, `{{ticket.reference}}`,
 * `{{ticket.description}}`, `{{company.name}}` and `{{operator.name}}` (the operator writing), filled in
 * when the answer is inserted into the message editor. Values go in as text: they are HTML-escaped
 * before they replace the placeholder in the answer's HTML, so a client called `<b>Jan</b>` stays that
 * text. A placeholder without a value here (unknown, or empty on this record) stays as written.
 */
import type { RaRecord } from 'react-admin';

export type PlaceholderValues = Record<string, string>;

/** The placeholder names this editor fills in; the schema's form help lists the same names. */
export const PLACEHOLDERS = [
  'client.name',
  'ticket.reference',
  'ticket.description',
  'company.name',
  'operator.name',
] as const;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== ''
    ? value
    : typeof value === 'number'
      ? String(value)
      : undefined;

/** The values for a record of the thread (a ticket with its client and company) and the writer. */
export function placeholderValues(
  morphType: string,
  record: RaRecord | undefined,
  operatorName: string | undefined,
): PlaceholderValues {
  const values: PlaceholderValues = {};
  const put = (name: string, value: unknown) => {
    const v = text(value);
    if (v !== undefined) values[name] = v;
  };
  const client = record?.client as Record<string, unknown> | null | undefined;
  const company = record?.company as Record<string, unknown> | null | undefined;
  put('client.name', client?.full_name ?? client?.name);
  put('company.name', company?.name);
  if (morphType === 'ticket') {
    put('ticket.reference', record?.reference);
    put('ticket.description', record?.description);
  }
  put('operator.name', operatorName);
  return values;
}

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
