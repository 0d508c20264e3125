/**
 * How a field's value is shown, as the schema says it (schemas/README.md, field keywords):
 *   x-badge     the date is shown with a SPEC 4 badge: "due-date" or "contract-end", or a "validity"
 *               badge (a quote's validity date: 'Expired' once past, common/quote-validity.ts), or
 *               { "kind": ..., "settled": [[field, op, value], …] } where a record matching any of the
 *               conditions (a paid invoice, a resolved ticket) shows its date without a badge, and
 *               a due-date badge may name a `state` field whose stored state decides (an SLA due);
 *   x-ellipsis  the SPEC 9 limit a text is cut at in tables and cards, overriding the name rules; false
 *               shows it in full, wrapping (an invoice reference, whose end tells the months apart);
 *   x-width     the list column's starting width in pixels at 1280 px (names whose usual length the
 *               kind of the field does not tell: a status beside a priority); the user's own width wins;
 *   x-detail    false: not among a detail's fields, where a part of the screen of its own shows it
 *               (the ticket's SLA panel shows its stored clock live); lists, filters and the API keep it.
 * Read here, in one place, for both apps and the registry's check at start.
 */
import { FIXED_OPERATORS, type Field, type FixedCondition } from './types.ts';

export const BADGE_KINDS = ['due-date', 'contract-end', 'validity'] as const;
export type BadgeKind = (typeof BADGE_KINDS)[number];

export interface Badge {
  kind: BadgeKind;
  /** Conditions under which the date needs no attention any more; any one that holds removes the badge. */
  settled: FixedCondition[];
  /**
   * due-date only: the field that holds the server's state of this date (an SLA target's, issue 35:
   * running, warning, paused, breached, met; empty without a target). The state decides where it
   * knows better than the clock of the browser: met or no target is the check mark, breached red,
   * paused the word 'paused'; running and warning follow the date's own rule.
   */
  state?: string;
}

/** The states a badge's `state` field holds (common/sla/clock.ts; schemas/_enums.json slaStates). */
export const BADGE_STATES = ['running', 'paused', 'warning', 'breached', 'met'] as const;

type Schema = Record<string, unknown>;

function fail(field: string, message: string): never {
  throw new Error(`field ${field}: ${message}`);
}

function isKind(value: unknown): value is BadgeKind {
  return typeof value === 'string' && (BADGE_KINDS as readonly string[]).includes(value);
}

/** The field's badge, or undefined; a malformed x-badge throws (caught when the schemas load). */
export function badgeOf(field: Pick<Field, 'name' | 'format' | 'schema'>): Badge | undefined {
  const raw = field.schema['x-badge'];
  if (raw === undefined) return undefined;
  if (field.format !== 'date' && field.format !== 'date-time')
    fail(field.name, 'x-badge needs format date or date-time');
  if (isKind(raw)) return { kind: raw, settled: [] };
  const spec = raw as Schema;
  if (typeof raw !== 'object' || raw === null || !isKind(spec.kind))
    fail(field.name, `x-badge must be one of ${BADGE_KINDS.join(', ')} or { kind, settled }`);
  const settled = spec.settled ?? [];
  if (
    !Array.isArray(settled) ||
    !settled.every(
      (c) =>
        Array.isArray(c) &&
        c.length === 3 &&
        typeof c[0] === 'string' &&
        (FIXED_OPERATORS as readonly string[]).includes(c[1]),
    )
  )
    fail(field.name, 'x-badge settled must be a list of [field, op, value]');
  const state = spec.state;
  if (state !== undefined && (typeof state !== 'string' || spec.kind !== 'due-date'))
    fail(field.name, 'x-badge state must name a field, on a due-date badge');
  return { kind: spec.kind, settled: settled as FixedCondition[], ...(state === undefined ? {} : { state }) };
}

/** Whether a record meets a schema condition (null with = / != is 'is null' / 'is not null'). */
export function meets(record: Record<string, unknown>, [name, op, expected]: FixedCondition): boolean {
  const value = record[name] ?? null;
  if (expected === null) return op === '=' ? value === null : op === '!=' ? value !== null : false;
  if (value === null) return false;
  if (op === '=') return String(value) === String(expected);
  if (op === '!=') return String(value) !== String(expected);
  const a = Number(value);
  const b = Number(expected);
  return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b;
}

/** Whether the detail screen lists the field among its fields (`x-detail: false`: it does not). */
export function inDetail(field: Pick<Field, 'name' | 'schema'>): boolean {
  const raw = field.schema['x-detail'];
  if (raw === undefined) return true;
  if (raw === false) return false;
  fail(field.name, 'x-detail may only be false');
}

/** The field's own ellipsis limit: a number, false for none, undefined to follow the name rules. */
export function ellipsisOf(field: Pick<Field, 'name' | 'schema'>): number | false | undefined {
  const raw = field.schema['x-ellipsis'];
  if (raw === undefined || raw === false) return raw;
  if (typeof raw === 'number' && Number.isInteger(raw) && raw > 0) return raw;
  fail(field.name, 'x-ellipsis must be a positive integer or false');
}

/** The forms' own inputs a field may ask for instead of its kind's (`x-input`). */
export const FIELD_INPUTS = [
  'automation-actions',
  'automation-conditions',
  'checklist',
  'portal-resources',
  'rich-text',
  'ticket-fields',
] as const;
export type FieldInput = (typeof FIELD_INPUTS)[number];

/**
 * The inputs whose values have a display of their own (src/resources/fields/display.tsx maps each to
 * its component, exhaustively), shown by it rather than as raw JSON.
 */
export const DISPLAYED_INPUTS = [
  'automation-actions',
  'automation-conditions',
  'checklist',
  'portal-resources',
  'ticket-fields',
] as const satisfies readonly FieldInput[];
export type DisplayedInput = (typeof DISPLAYED_INPUTS)[number];

/** Whether a field's value has a display of its own (x-input) to show it by, rather than its raw JSON. */
export const hasOwnDisplay = (field: Pick<Field, 'name' | 'schema'>): boolean =>
  (DISPLAYED_INPUTS as readonly string[]).includes(inputOf(field) ?? '');

/** The input a field asks for (`x-input`), undefined for its kind's. */
export function inputOf(field: Pick<Field, 'name' | 'schema'>): FieldInput | undefined {
  const raw = field.schema['x-input'];
  if (raw === undefined) return undefined;
  if (FIELD_INPUTS.includes(raw as FieldInput)) return raw as FieldInput;
  fail(field.name, `x-input must be one of ${FIELD_INPUTS.join(', ')}`);
}

/** The field's list column's starting width in pixels (`x-width`), undefined to follow its kind. */
export function widthOf(field: Pick<Field, 'name' | 'schema'>): number | undefined {
  const raw = field.schema['x-width'];
  if (raw === undefined) return undefined;
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 40 && raw <= 800) return raw;
  fail(field.name, 'x-width must be a whole number of pixels from 40 to 800');
}
