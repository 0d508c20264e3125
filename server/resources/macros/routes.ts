/**
 * The macros an operator uses (issue 37, item 3), beside the generic routes that manage them:
 *
 * GET /api/macros/offered: the macros offered to the caller, by name: the team's for every operator or
 * for the caller's role, and the caller's personal ones (x-personal hides everyone else's anyway).
 *
 * POST /api/macros/{id}/apply {ids}: a macro's actions on one ticket (its header, the m shortcut) or the
 * bulk bar's selection, in one transaction (issue 37, item 3). The caller needs `tenant.macros.apply`,
 * must be offered the macro (a personal one is its owner's, a team one for a role is that role's: any
 * other is a 404) and must be allowed each of its actions by hand (the runner checks them, per action:
 * a 403 naming the action). The changes are the caller's, in each ticket's history, and fire the
 * triggers as a change by hand does.
 */
import { sql } from 'kysely';
import type { AuthContext } from '../../auth/context.ts';
import type { Db, DbTransaction } from '../../db/database.ts';
import type { Schema } from '../../docs/refs.ts';
import { notFound } from '../../http/errors.ts';
import { idListBody } from '../../http/ids.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { actionRoute, OPERATORS_ONLY } from '../../docs/action-schema.ts';
import { and, ref, tableAs } from '../../query/fragments.ts';
import { baseConditions, sqlContext } from '../../query/sql.ts';
import type { Registry } from '../../schema/registry.ts';
import { BodyValidation } from '../../schema/validate.ts';
import { runActions } from '../../automation/run-actions.ts';
import type { AutomationAction } from '../../../common/automation/actions.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { findRecord, type Deps } from '../repository.ts';
import { ticketsUpdated } from '../../automation/events.ts';

/** The most tickets one application takes: a page of the list. */
export const MAX_MACRO_TICKETS = 100;

/** The caller's role (a macro for a role is offered to its operators only). */
async function roleOf(db: Db | DbTransaction, auth: AuthContext): Promise<number | null> {
  if (auth.userId === null) return null;
  const user = await db
    .selectFrom('users')
    .select('role_id')
    .where('tenant_id', '=', auth.tenantId)
    .where('id', '=', auth.userId)
    .executeTakeFirst();
  return user?.role_id ?? null;
}

/** Whether the macro is offered to the caller: for every operator, or for the caller's role. */
async function offeredTo(trx: DbTransaction, auth: AuthContext, roleId: unknown): Promise<boolean> {
  return roleId === null || roleId === undefined || (await roleOf(trx, auth)) === Number(roleId);
}

const OFFERED: Schema = {
  type: 'object',
  required: ['data'],
  additionalProperties: false,
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'shortcut', 'personal'],
        additionalProperties: false,
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          shortcut: { type: ['integer', 'null'], description: 'The digit pressed after m on a ticket.' },
          personal: { type: 'boolean' },
        },
      },
    },
  },
};

/** At most this many macros are offered (a menu, not a list to page). */
const MAX_OFFERED = 200;

/**
 * The tickets, as the caller may see them (the one place that scopes: baseConditions), locked in id
 * order so that two applications on overlapping tickets wait rather than deadlock. One the caller may
 * not see makes the whole call a 404, as a single ticket's would.
 */
async function lockTickets(trx: DbTransaction, registry: Registry, auth: AuthContext, ids: number[]) {
  const tickets = registry.require('tickets');
  const ctx = sqlContext(registry, auth);
  const alias = ctx.nextAlias();
  const where = and([...baseConditions(ctx, tickets, alias), sql`${ref(alias, 'id')} in (${sql.join(ids)})`]);
  const { rows } = await sql<{ id: number }>`select ${ref(alias, 'id')} from ${tableAs(tickets, alias)}
    where ${where} order by ${ref(alias, 'id')} for update`.execute(trx);
  if (rows.length !== ids.length) throw notFound();
}

export const macroRoutes: ActionPlugin = async (app, { db, registry }) => {
  const macros = registry.require('macros');
  const deps: Deps = { db, registry, validation: new BodyValidation() };

  app.get(
    '/api/macros/offered',
    actionRoute({
      tag: macros.name,
      operationId: 'macrosOffered',
      params: false,
      summary: 'The macros offered to the caller',
      description:
        'The team’s macros for every operator or for the caller’s role, and the caller’s personal ' +
        `ones, by name (at most ${MAX_OFFERED}). Permission \`tenant.macros.apply\`. ${OPERATORS_ONLY}`,
      answers: { 200: { description: 'The macros, by name.', schema: OFFERED } },
      errors: [401, 403, 503],
    }),
    async (request) => {
      const auth = await authorize(request, macros, 'apply');
      validInput(request);
      const role = await roleOf(db, auth);
      const data = await db
        .selectFrom('macros')
        .select(['id', 'name', 'shortcut', 'personal'])
        .where('tenant_id', '=', auth.tenantId)
        .where((eb) =>
          eb.or([
            eb.and([eb('personal', '=', true), eb('owner_id', '=', auth.userId ?? 0)]),
            eb.and([
              eb('personal', '=', false),
              eb.or([eb('role_id', 'is', null), ...(role === null ? [] : [eb('role_id', '=', role)])]),
            ]),
          ]),
        )
        .orderBy('name')
        .orderBy('id')
        .limit(MAX_OFFERED)
        .execute();
      return { data };
    },
  );

  app.post<RecordParams & { Body: { ids: number[] } }>(
    '/api/macros/:id/apply',
    actionRoute({
      tag: macros.name,
      operationId: 'macrosApply',
      summary: 'Apply a macro to tickets',
      description:
        'Runs the macro\u2019s actions in order on each ticket, in one transaction, as the caller: each change is ' +
        'in the ticket\u2019s history by the caller and fires the triggers as a change by hand does. A personal ' +
        'macro is its owner\u2019s and a team macro for a role that role\u2019s (any other: 404); a ticket the caller ' +
        'may not see makes it a 404 and nothing changes. Each action needs its permission by hand ' +
        '(`tenant.tickets.update` to set a field, `tenant.messages.store` for a note or a reply): 403 naming ' +
        `the action. Permission \`tenant.macros.apply\`. ${OPERATORS_ONLY}`,
      body: idListBody({
        min: 1,
        max: MAX_MACRO_TICKETS,
        tooFew: 'Choose at least one ticket.',
        tooMany: `At most ${MAX_MACRO_TICKETS} tickets at once.`,
        description: 'The tickets to apply the macro to.',
      }),
      answers: {
        200: {
          description: 'The tickets the macro was applied to.',
          schema: {
            type: 'object',
            required: ['data'],
            additionalProperties: false,
            properties: {
              data: {
                type: 'object',
                required: ['ids'],
                additionalProperties: false,
                properties: { ids: { type: 'array', items: { type: 'integer' } } },
              },
            },
          },
        },
      },
    }),
    async (request) => {
      const auth = await authorize(request, macros, 'apply');
      validInput(request);
      const macro = await findRecord(deps, auth, macros, request.params.id);
      const ids = [...request.body.ids].sort((a, b) => a - b);
      await db.transaction().execute(async (trx) => {
        if (!(await offeredTo(trx, auth, macro.role_id))) throw notFound();
        await lockTickets(trx, registry, auth, ids);
        const effects = await runActions(
          trx,
          registry,
          auth.tenantId,
          { kind: 'user', auth },
          ids,
          macro.actions as AutomationAction[],
        );
        // A macro is the operator's edit: the triggers hear of the fields it set (issue 37).
        await ticketsUpdated(trx, auth.tenantId, effects);
      });
      return { data: { ids } };
    },
  );
};
