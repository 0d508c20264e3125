/**
 * The automation rules' own calls and job (issue 37):
 * - GET /automation-rules/{id}/matches: how many open tickets the rule's conditions hold for now, for
 *   the caller (the list's scope), with the builder that shows them in the ticket list (the rule's
 *   conditions and "open"), so the rule's screen can link to exactly that list.
 * - the time-based rules' loop (server/automation/time-rules.ts), on every instance, every
 *   DEADLINE_CHECK_MS as the other timed checks; their claim makes each action once.
 */
import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { runTimeRules } from '../../automation/time-rules.ts';
import { forbidden } from '../../http/errors.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { actionRoute, OPERATORS_ONLY } from '../../docs/action-schema.ts';
import { and, tableAs } from '../../query/fragments.ts';
import { parseBuilderConditions } from '../../query/parse.ts';
import { baseConditions, compileCondition, sqlContext } from '../../query/sql.ts';
import { isPortalCaller } from '../../query/visibility.ts';
import { BodyValidation } from '../../schema/validate.ts';
import { WakeLoop } from '../../system/wake-loop.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { findRecord, type Deps } from '../repository.ts';

/** The internal status types of an open ticket: every one but closed (2) and archived (3), _enums.json. */
const OPEN_TYPES = [1, 4, 5, 6];

const ANSWER = {
  type: 'object',
  required: ['count', 'builder'],
  properties: {
    count: {
      type: 'integer',
      description: 'Open tickets the conditions hold for now, that the caller sees.',
    },
    builder: {
      type: 'array',
      items: { type: 'object', additionalProperties: true },
      description: "GET /api/tickets's builder for those tickets: the rule's conditions and an open status.",
    },
  },
};

export const automationRuleActions: ActionPlugin = async (app, { db, registry, config }) => {
  const rules = registry.require('automation-rules');
  const tickets = registry.require('tickets');
  const deps: Deps = { db, registry, validation: new BodyValidation() };

  app.get<RecordParams>(
    '/api/automation-rules/:id/matches',
    actionRoute({
      tag: rules.name,
      operationId: 'automationRulesMatches',
      summary: 'Which open tickets a rule matches now',
      description:
        "The number of open tickets (not closed or archived) that the rule's conditions hold for now, among " +
        'those the caller may list, and the builder of GET /api/tickets that lists them. Permission: ' +
        '`tenant.automation-rules.show` and `tenant.tickets.index`. ' +
        OPERATORS_ONLY,
      answers: { 200: { description: 'The count and the builder.', schema: ANSWER } },
    }),
    async (request: FastifyRequest<RecordParams>) => {
      const auth = await authorize(request, rules, 'show');
      if (isPortalCaller(auth) || !auth.permissions.has('tenant.tickets.index')) throw forbidden();
      validInput(request);
      const rule = await findRecord(deps, auth, rules, request.params.id);
      const builder = [
        ...(Array.isArray(rule.conditions) ? rule.conditions : []),
        { whereHas: ['status', [{ whereIn: ['internal_type', OPEN_TYPES] }]] },
      ];
      const ctx = sqlContext(registry, auth);
      const alias = ctx.nextAlias();
      const conditions = parseBuilderConditions(ctx, tickets, builder, 'conditions');
      const where = and([
        ...baseConditions(ctx, tickets, alias),
        ...conditions.map((c) => compileCondition(ctx, tickets, alias, c)),
      ]);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${tableAs(tickets, alias)}
        where ${where}`.execute(db);
      return { count: Number(rows[0]?.n ?? 0), builder };
    },
  );

  const loop = new WakeLoop(
    async () => {
      await runTimeRules(db);
    },
    config.deadlineCheckMs,
    (error) => app.log.error({ err: error }, 'time-based rules: lost its database'),
  );
  app.addHook('onReady', async () => {
    if (config.deadlineCheckMs > 0) loop.start();
  });
  app.addHook('onClose', async () => loop.stop());
};
