/**
 * The values of a standard answer's placeholders for a record of the thread (a ticket with its client
 * and company) and the operator writing; the names and the filling are shared with the server
 * (common/standard-answers/placeholders.ts).
 */
import type { RaRecord } from 'react-admin';
import { placeholderText, type PlaceholderValues } from '../../../common/standard-answers/placeholders.ts';

export {
  escapeHtml,
  fillPlaceholders,
  PLACEHOLDERS,
  type PlaceholderValues,
} from '../../../common/standard-answers/placeholders.ts';

/** The values for a record of the thread (a ticket with its client and company) and the writer. */
export function placeholderValues(
  morphType: string,
  record: RaRecord | undefined,
  operatorName: string | undefined,
): PlaceholderValues {
  const values: PlaceholderValues = {};
  const put = (name: string, value: unknown) => {
    const v = placeholderText(value);
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
