/**
 * A ticket's history of changes (issue 18, item 5): who changed which of its fields when, from what to
 * what. Every path that changes a ticket (an edit, close, restore, a merge of tickets or of companies)
 * calls recordTicketChanges with what it is about to set, in its own transaction and before its
 * update, so the history and the change commit or roll back together. Beside it, status-log.ts writes
 * the status-changed message of the thread; the history is the operators' record of every field.
 *
 * Rows hold the stored values (ids, instants) and the names they had at that moment (in Dutch, as the
 * status log keeps its name); the ticket-changes present hook names them again in the reader's language
 * while the named record exists.
 */
import { sql } from 'kysely';
import type { Db, DbTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../auth/context.ts';
import type { Language, Resource } from '../../../common/schema/types.ts';
import type { Registry } from '../../schema/registry.ts';
import { fieldValue } from '../../query/fragments.ts';
import { formatMoment } from '../../pdf/time.ts';
import { surveysOnStatusChange, withdrawSurveys } from '../satisfaction-surveys/send.ts';
import type { CustomValueChange } from '../custom-values.ts';

/** The ticket fields whose changes are recorded (issue 18). */
export const TRACKED_FIELDS = [
  'status_id',
  'priority_id',
  'operator_id',
  'company_id',
  'client_id',
  'deadline',
  'sla_id',
  'ticket_group_id',
] as const;

/** History entries that are not a field of the ticket. */
export const MESSAGE_DELETED = 'message_deleted';
export const MERGED = 'merged';
/** A change of any custom field: one enum value for all, the field's title in its labels. */
export const CUSTOM_FIELD_CHANGE = 'custom_field';

const TICKETS = 'tickets';

export interface ChangeEntry {
  ticketId: number;
  field: string;
  from: string | null;
  to: string | null;
  fromLabel?: string | null;
  toLabel?: string | null;
  /** Made by this SLA's escalation (issue 35), not by the caller. */
  slaId?: number;
  /** Made by this automation rule (issue 37), not by the caller. */
  ruleId?: number;
}

/**
 * The history entries of a ticket's changed custom values, labelled with the field's title ("Locatie:
 * Utrecht"): the entry's `field` is the same for every custom field, and the reader must still see which
 * one changed.
 */
export function customFieldEntries(
  ticketId: number,
  changes: CustomValueChange[],
  by: { ruleId?: number } = {},
): ChangeEntry[] {
  return changes.map((c) => ({
    ticketId,
    field: CUSTOM_FIELD_CHANGE,
    from: c.from,
    to: c.to,
    fromLabel: c.from === null ? null : `${c.title}: ${c.from}`,
    toLabel: c.to === null ? null : `${c.title}: ${c.to}`,
    ...by,
  }));
}

/** A column's value as the history keeps it: ids and texts as text, instants in ISO form. */
function stored(field: string, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return value.toISOString();
  if (field === 'deadline') {
    const time = Date.parse(String(value));
    return Number.isNaN(time) ? String(value) : new Date(time).toISOString();
  }
  return String(value);
}

/** The resource a ticket field points at (its belongsTo relation), if it is a reference. */
export function referencedResource(registry: Registry, field: string): Resource | undefined {
  const relation = Object.values(registry.require(TICKETS).relations).find(
    (r) => r.kind === 'belongsTo' && r.key === field,
  );
  return relation?.kind === 'belongsTo' ? registry.require(relation.resource) : undefined;
}

/**
 * The names of records of `target` by id, in `language` (translated names fall back as everywhere), in
 * the caller's tenant. One statement.
 */
export async function namesOf(
  db: Db,
  tenantId: number,
  target: Resource,
  ids: number[],
  language: Language,
): Promise<Map<number, string>> {
  const label = target.fields[target.label];
  if (ids.length === 0 || !label) return new Map();
  const { rows } = await sql<{ id: number; name: string | null }>`
    select t.id, ${fieldValue('t', label, language)} as name from ${sql.table(target.table)} as t
    where t.id in (${sql.join(ids)}) ${target.tenant ? sql`and t.tenant_id = ${tenantId}` : sql``}`.execute(
    db,
  );
  return new Map(rows.map((r) => [Number(r.id), r.name === null ? '' : String(r.name)]));
}

/** Fills in the names of entries that have none (references by their record's name, instants as dates). */
async function addLabels(trx: DbTransaction, registry: Registry, tenantId: number, entries: ChangeEntry[]) {
  const byField = new Map<string, ChangeEntry[]>();
  for (const e of entries) byField.set(e.field, [...(byField.get(e.field) ?? []), e]);
  for (const [field, list] of byField) {
    if (field === 'deadline') {
      for (const e of list) {
        e.fromLabel ??= e.from === null ? null : formatMoment(e.from);
        e.toLabel ??= e.to === null ? null : formatMoment(e.to);
      }
      continue;
    }
    const target = referencedResource(registry, field);
    if (!target) continue;
    const ids = [
      ...new Set(
        list
          .flatMap((e) => [e.from, e.to])
          .map(Number)
          .filter((n) => Number.isSafeInteger(n)),
      ),
    ];
    const names = await namesOf(trx, tenantId, target, ids, 'nl');
    for (const e of list) {
      e.fromLabel ??= e.from === null ? null : (names.get(Number(e.from)) ?? null);
      e.toLabel ??= e.to === null ? null : (names.get(Number(e.to)) ?? null);
    }
  }
}

/**
 * The name a person has now, as the value of a change they make (kept with the change: a client's name
 * too, and a name that outlives its account). A subquery, so the insert stays one statement.
 */
export const userName = (trx: DbTransaction, userId: number | null) =>
  trx
    .selectFrom('users')
    .select('full_name')
    .where('id', '=', userId ?? 0);

/** Writes history entries as they are (a deleted message, a merge), in the caller's transaction. */
export async function writeHistory(
  trx: DbTransaction,
  registry: Registry,
  auth: AuthContext,
  entries: ChangeEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await addLabels(trx, registry, auth.tenantId, entries);
  await trx
    .insertInto('ticket_changes')
    .values(
      entries.map((e) => ({
        tenant_id: auth.tenantId,
        ticket_id: e.ticketId,
        user_id: e.slaId || e.ruleId ? null : auth.userId,
        user_label: e.slaId || e.ruleId ? null : userName(trx, auth.userId),
        sla_id: e.slaId ?? null,
        rule_id: e.ruleId ?? null,
        field: e.field,
        from_value: e.from,
        to_value: e.to,
        from_label: e.fromLabel ?? null,
        to_label: e.toLabel ?? null,
      })),
    )
    .execute(); // Every status change passes here, before its update: a ticket being resolved gets its survey (issue 39).
  const statuses = entries
    .filter((e) => e.field === 'status_id' && e.to !== null && Number.isSafeInteger(Number(e.to)))
    .map((e) => ({ ticketId: e.ticketId, statusId: Number(e.to) }));
  await surveysOnStatusChange(trx, auth.tenantId, statuses);
  const mergedAway = entries.filter((e) => e.field === MERGED && e.from === String(e.ticketId));
  await withdrawSurveys(
    trx,
    auth.tenantId,
    mergedAway.map((e) => e.ticketId),
  );
}

/**
 * Records what setting `changes` (column -> new value) on the tickets `ids` changes in their tracked
 * fields: one entry per ticket and field whose value differs from what the ticket holds now. Call it
 * in the change's transaction, before the update. Two statements at most, plus one per referenced
 * kind of record for the names.
 */
export async function recordTicketChanges(
  trx: DbTransaction,
  registry: Registry,
  auth: AuthContext,
  ids: number[],
  changes: Record<string, unknown>,
  by: { slaId?: number; ruleId?: number } = {},
): Promise<void> {
  const fields = TRACKED_FIELDS.filter((f) => f in changes);
  if (fields.length === 0 || ids.length === 0) return;
  const current = await trx
    .selectFrom('tickets')
    .select(['id', ...fields])
    .where('tenant_id', '=', auth.tenantId)
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  const entries: ChangeEntry[] = [];
  for (const row of current) {
    for (const field of fields) {
      const from = stored(field, row[field]);
      const to = stored(field, changes[field]);
      if (from !== to) entries.push({ ticketId: Number(row.id), field, from, to, ...by });
    }
  }
  await writeHistory(trx, registry, auth, entries);
}
