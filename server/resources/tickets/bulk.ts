/**
 * Bulk actions on the back office's ticket list (issue 18, item 3): POST /tickets/bulk changes the
 * selected tickets, or every ticket of the list's filter, in one call and one transaction. The fields and
 * actions it takes are the schema's x-bulk (set a field, close, merge); each needs the permission of the
 * single-ticket path (update, close, merge), and every ticket's change goes through the same history
 * recorder and status log as a change of one ticket.
 *
 * Tickets outside the caller's scope (another tenant's) are left out, not refused: they are not changed
 * and not counted, as if they were not in the selection. A ticket that would not change (it has the value
 * already, or is closed already) is not counted either, so the answer's count is what changed.
 */
import { keepTicketClocks } from '../../sla/keep.ts';
import { ticketsChanged } from '../notifications/notify.ts';
import { sql } from 'kysely';
import type { DbTransaction } from '../../db/database.ts';
import type { AuthContext } from '../../auth/context.ts';
import { forbidden, ValidationError } from '../../http/errors.ts';
import { ID_ITEM } from '../../http/ids.ts';
import { parseBuilderConditions } from '../../query/parse.ts';
import { isPortalCaller } from '../../query/visibility.ts';
import { baseConditions, compileCondition, sqlContext } from '../../query/sql.ts';
import { and, ref, tableAs } from '../../query/fragments.ts';
import { BodyValidation } from '../../schema/validate.ts';
import type { Resource } from '../../../common/schema/types.ts';
import { serverText } from '../../../common/server-texts.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { validInputWith } from '../../http/route-validation.ts';
import { checkReferences, writableFields, type Deps } from '../repository.ts';
import { MAX_MERGE } from '../merge.ts';
import { actionRoute, closedBody, OPERATORS_ONLY } from '../../docs/action-schema.ts';
import { recordTicketChanges } from './history.ts';
import { changeTickets, logStatuses } from './change.ts';
import { closedStatusId, mergeTickets } from './actions.ts';
import { ARCHIVED, CLOSED, resolvedAtOnUpdate } from './resolved.ts';
import { guardClosing, OVERRIDE_FLAG } from '../checklist-items/closing.ts';
import { OVERRIDE_PROPERTY, overrides } from '../checklist-items/override.ts';
import { ticketsUpdated } from '../../automation/events.ts';

/** The most tickets one bulk call changes: a page of the list is 100 at most, a filter may hold more. */
export const MAX_BULK = 1_000;

/** The actions of a bulk call: `update` sets the `changes` fields, the others are the ticket actions. */
const ACTIONS = ['update', 'close', 'merge'] as const;
type BulkAction = (typeof ACTIONS)[number];

interface BulkBody {
  action: BulkAction;
  ids?: number[];
  builder?: unknown;
  changes?: Record<string, unknown>;
  [OVERRIDE_FLAG]?: boolean;
}

/**
 * By hand: the rules of two fields together, which the body's schema cannot say in these words: either
 * `ids` or `builder` (a `oneOf` would name neither field), and `changes` with `update` only, then only the
 * fields of x-bulk, each named by its place (`changes.description`).
 */
function crossFieldErrors(resource: Resource, raw: unknown): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return errors; // the schema's to say
  const body = raw as Record<string, unknown>;
  if ((body.ids === undefined) === (body.builder === undefined))
    errors.ids = [serverText('bulk_ids_or_builder')];
  const { changes } = body;
  if (body.action !== 'update') {
    if (changes !== undefined) errors.changes = [serverText('bulk_no_changes')];
  } else if (
    !changes ||
    typeof changes !== 'object' ||
    Array.isArray(changes) ||
    !Object.keys(changes).length
  )
    errors.changes = [serverText('bulk_no_changes')];
  else
    for (const name of Object.keys(changes))
      if (!resource.bulk?.fields.includes(name))
        errors[`changes.${name}`] = [serverText('bulk_field_not_offered', { field: name })];
  return errors;
}

/**
 * The tickets the call is about, in the caller's scope, locked in id order (a concurrent bulk call on
 * overlapping tickets waits instead of deadlocking): the given ids, or every ticket of the filter. More
 * than the cap is a 422 and nothing changes.
 */
async function targetIds(
  deps: Deps,
  trx: DbTransaction,
  auth: AuthContext,
  resource: Resource,
  body: BulkBody,
): Promise<number[]> {
  const ctx = sqlContext(deps.registry, auth);
  const alias = ctx.nextAlias();
  const chosen = body.ids
    ? [sql`${ref(alias, 'id')} in (${sql.join(body.ids)})`]
    : parseBuilderConditions(ctx, resource, body.builder, 'builder').map((c) =>
        compileCondition(ctx, resource, alias, c),
      );
  const where = and([...baseConditions(ctx, resource, alias), ...chosen]);
  const { rows } = await sql<{ id: number }>`select ${ref(alias, 'id')} from ${tableAs(resource, alias)}
    where ${where} order by ${ref(alias, 'id')} limit ${MAX_BULK + 1} for update`.execute(trx);
  if (rows.length > MAX_BULK)
    throw new ValidationError({ builder: [serverText('bulk_too_many', { count: MAX_BULK })] });
  const found = new Set(rows.map((r) => Number(r.id)));
  // The selection's order stays: a merge keeps the first selected ticket.
  return body.ids ? [...new Set(body.ids)].filter((id) => found.has(id)) : [...found];
}

/** Sets the x-bulk fields of `changes` on the tickets; answers the ids of those that changed. */
async function update(
  deps: Deps,
  trx: DbTransaction,
  auth: AuthContext,
  resource: Resource,
  ids: number[],
  raw: Record<string, unknown>,
  override: boolean,
): Promise<number[]> {
  const fields = writableFields(resource, auth).filter((f) => resource.bulk?.fields.includes(f.name));
  const data = deps.validation.check(resource, raw, fields, false);
  await checkReferences(deps, trx, auth, resource, data);
  const changes = Object.fromEntries(
    Object.entries(data).map(([name, value]) => [resource.fields[name]!.column, value]),
  );
  if (ids.length === 0) return [];
  const changed = await changeTickets(trx, deps.registry, auth, resource, ids, changes, { override });
  // The triggers hear of it as of an edit of each ticket (issue 37).
  await ticketsUpdated(
    trx,
    auth.tenantId,
    changed.map((c) => ({ ticketId: c.ticketId, field: c.column })),
  );
  return [...new Set(changed.map((c) => c.ticketId))];
}

/** Closes the tickets that are not closed or archived yet, as POST tickets/{id}/close does one. */
async function close(
  trx: DbTransaction,
  deps: Deps,
  auth: AuthContext,
  ids: number[],
  override: boolean,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const open = await trx
    .selectFrom('tickets as t')
    .innerJoin('ticket_statuses as s', 's.id', 't.status_id')
    .select(['t.id', 't.status_id'])
    .where('t.tenant_id', '=', auth.tenantId)
    .where('t.id', 'in', ids)
    .where('s.internal_type', 'not in', [CLOSED, ARCHIVED])
    .orderBy('t.id')
    .execute();
  const closing = open.map((r) => ({ id: Number(r.id), status_id: r.status_id }));
  if (closing.length === 0) return [];
  const closed = await closedStatusId(trx, auth.tenantId);
  const changed = closing.map((r) => r.id);
  await guardClosing(trx, deps.registry, auth, changed, closed, override);
  await recordTicketChanges(trx, deps.registry, auth, changed, { status_id: closed });
  await ticketsChanged(trx, auth.tenantId, changed);
  await logStatuses(trx, auth, closing, closed);
  await trx
    .updateTable('tickets')
    .set({
      status_id: closed,
      resolved_at: resolvedAtOnUpdate(auth.tenantId, closed),
      updated_at: sql`now()`,
    })
    .where('tenant_id', '=', auth.tenantId)
    .where('id', 'in', changed)
    .execute();
  await keepTicketClocks(trx, auth.tenantId, changed);
  await ticketsUpdated(
    trx,
    auth.tenantId,
    changed.map((ticketId) => ({ ticketId, field: 'status_id' })),
  );
  return changed;
}

/**
 * The body: the action one of those the resource offers, the ids a list of valid ids (at most MAX_BULK),
 * each failure in the words the app matches; `changes` and the choice of ids or builder are by hand
 * (crossFieldErrors), the builder is the list parser's (its 422s are the list's own).
 */
function bulkBody(resource: Resource) {
  const offered = ['update', ...(resource.bulk?.actions ?? [])];
  return closedBody(
    {
      action: {
        type: 'string',
        enum: offered.filter((action) => ACTIONS.includes(action as BulkAction)),
        description: '`update` sets `changes` on every ticket; `close` and `merge` are the ticket actions.',
        'x-error': serverText('bulk_action_unknown', { actions: offered.join(', ') }),
      },
      ids: {
        type: 'array',
        minItems: 1,
        maxItems: MAX_BULK,
        items: ID_ITEM,
        description: 'The selected tickets (a merge keeps the first). Either ids or builder.',
        'x-error': {
          type: 'select_at_least_one',
          minItems: 'select_at_least_one',
          maxItems: serverText('bulk_too_many', { count: MAX_BULK }),
        },
      },
      builder: {
        type: 'array',
        items: { type: 'object' },
        description:
          "Every ticket of the list's filter: builder items as the list's `builder` query takes them.",
      },
      changes: {
        type: 'object',
        description: "For `update`: the fields to set, those of the schema's x-bulk (operator, status, …).",
        'x-error': { type: 'bulk_no_changes' },
      },
      [OVERRIDE_FLAG]: OVERRIDE_PROPERTY,
    },
    ['action'],
  );
}

const BULK_ANSWER = {
  type: 'object',
  required: ['count', 'ids'],
  properties: {
    count: { type: 'integer', description: 'How many tickets changed.' },
    ids: { type: 'array', items: { type: 'integer' }, description: 'The tickets that changed.' },
  },
};

export const ticketBulkActions: ActionPlugin = async (app, { db, registry }) => {
  const tickets = registry.require('tickets');
  const deps: Deps = { db, registry, validation: new BodyValidation() };

  app.post(
    '/api/tickets/bulk',
    actionRoute({
      tag: tickets.name,
      operationId: 'ticketsBulk',
      summary: 'Change many tickets at once',
      description:
        'Sets fields on (`update`), closes or merges the tickets `ids`, or every ticket of the filter ' +
        '`builder`, in one transaction: each change is in the ticket history and a new status in its ' +
        'thread, as for one ticket. Permission of the action: `tenant.tickets.update`, `.close` or `.merge`. ' +
        'Tickets the caller does not see are left out and not counted; so are tickets that would not change. ' +
        `At most ${MAX_BULK} tickets (${MAX_MERGE} for a merge) per call, else 422 and nothing changes. ` +
        OPERATORS_ONLY,
      params: false,
      body: bulkBody(tickets),
      answers: { 200: { description: 'How many tickets changed, and which.', schema: BULK_ANSWER } },
    }),
    async (request) => {
      const raw = (request.body ?? {}) as Record<string, unknown>;
      const permission = ACTIONS.includes(raw.action as BulkAction) ? String(raw.action) : 'update';
      const auth = await authorize(request, tickets, permission);
      if (isPortalCaller(auth)) throw forbidden();
      // by hand: two fields together (ids or builder; changes with update only), see crossFieldErrors.
      validInputWith(request, crossFieldErrors(tickets, request.body));
      const body = raw as unknown as BulkBody;
      const changed = await db.transaction().execute(async (trx) => {
        const ids = await targetIds(deps, trx, auth, tickets, body);
        const override = overrides(body);
        if (body.action === 'update')
          return update(deps, trx, auth, tickets, ids, body.changes ?? {}, override);
        if (body.action === 'close') return close(trx, deps, auth, ids, override);
        if (ids.length > MAX_MERGE)
          throw new ValidationError({ ids: [serverText('merge_too_many', { count: MAX_MERGE })] });
        if (ids.length < 2) throw new ValidationError({ ids: [serverText('merge_too_few')] });
        await mergeTickets(deps, trx, auth, ids);
        return ids;
      });
      return { count: changed.length, ids: changed };
    },
  );
};
