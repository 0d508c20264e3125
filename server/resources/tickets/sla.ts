/**
 * GET /tickets/{id}/sla (issue 35, item 4): a ticket's SLA clock as the detail screens show it, measured
 * at the request from the ticket's whole history (server/sla/ticket-clock.ts), not read from the summary
 * stored on the ticket: the detail shows the business minutes left to the minute, which the stored
 * summary does not keep.
 *
 * Operators with `tenant.tickets.show` get all of it: the SLA that applies, its name and why, and per
 * target its minutes, due, elapsed and remaining business minutes, pause and state. A client gets the
 * promise only, for a ticket the portal lets them see (the same scope as GET /tickets/{id}: a ticket of
 * another company is a 404): the first response and the resolution, each its minutes, due, whether it
 * was met and when it ended; no SLA name, no warning thresholds, no next-response cycles. With the
 * tenant setting `portal_show_sla` off, the portal's answer is a 404, as if there were nothing to show.
 */
import type { FastifyRequest } from 'fastify';
import type { ClockResult, TargetClock } from '../../../common/sla/clock.ts';
import type { AuthContext } from '../../auth/context.ts';
import type { Db } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { validInput, type RecordParams } from '../../http/route-validation.ts';
import { isPortalCaller } from '../../query/visibility.ts';
import { PORTAL_SHOW_SLA, tenantFlag } from '../../settings/tenant-config.ts';
import type { AppliedSla } from '../../sla/policy.ts';
import { tenantToday } from '../../sla/stored-clock.ts';
import { ticketClock } from '../../sla/ticket-clock.ts';
import { actionRoute } from '../../docs/action-schema.ts';
import type { Schema } from '../../docs/refs.ts';
import type { ActionPlugin } from '../action-contract.ts';
import { authorize } from '../plugin.ts';
import { findRecord, type Deps } from '../repository.ts';
import { BodyValidation } from '../../schema/validate.ts';

const nullable = (type: string, description: string, format?: string): Schema => ({
  type: [type, 'null'],
  ...(format ? { format } : {}),
  description,
});
const OPERATORS = ' Operators only.';

const TARGET: Schema = {
  type: ['object', 'null'],
  required: ['target', 'due', 'state', 'ended_at'],
  properties: {
    target: nullable('integer', 'Business minutes the SLA allows; null: it sets no such target.'),
    due: nullable(
      'string',
      'When the business minutes run out, while the target counts; null when paused, ended or without target.',
      'date-time',
    ),
    state: {
      type: 'string',
      enum: ['running', 'paused', 'warning', 'breached', 'met'],
      description: 'A client never sees `warning` (a threshold is internal): it reads `running`.',
    },
    ended_at: nullable('string', 'When the target was met or ended (solved, closed, merged).', 'date-time'),
    started_at: { type: 'string', format: 'date-time', description: `When it started.${OPERATORS}` },
    elapsed: { type: 'integer', description: `Whole business minutes counted so far.${OPERATORS}` },
    remaining: nullable('integer', `\`target − elapsed\`, negative once overdue.${OPERATORS}`),
    paused: { type: 'boolean', description: `The ticket's status pauses the clock.${OPERATORS}` },
    paused_since: nullable('string', `Since when it is paused.${OPERATORS}`, 'date-time'),
    breached_at: nullable(
      'string',
      `The due instant that passed while it was open.${OPERATORS}`,
      'date-time',
    ),
    threshold: nullable('integer', `The highest warning percentage reached.${OPERATORS}`),
  },
};

const ANSWER: Schema = {
  type: 'object',
  required: ['business_hours', 'first_response', 'resolution'],
  properties: {
    applied: {
      type: ['object', 'null'],
      description: `The SLA that governs the ticket and why; null when none does.${OPERATORS}`,
      required: ['sla_id', 'name', 'source'],
      properties: {
        sla_id: { type: 'integer' },
        name: { type: 'string', description: "In the request's language." },
        source: {
          type: 'string',
          enum: ['ticket', 'contract', 'company', 'tenant'],
          description: "The ticket's own, its company's contract's, its company's, or the tenant default.",
        },
      },
    },
    business_hours: {
      type: 'boolean',
      description:
        "The applied SLA counts in its business-hour contract's hours; false: all day, every day (none, or a " +
        'contract without a schedule), or no SLA.',
    },
    open: { type: 'boolean', description: `Not solved, closed or merged.${OPERATORS}` },
    paused: { type: 'boolean', description: `The ticket's status pauses the clock.${OPERATORS}` },
    first_response: { ...TARGET, description: 'For a client: null when nothing is promised.' },
    next_response: { ...TARGET, description: `The last next-response cycle; null before any.${OPERATORS}` },
    next_response_breaches: { type: 'integer', description: `Breached next-response cycles.${OPERATORS}` },
    resolution: { ...TARGET, description: 'For a client: null when nothing is promised.' },
  },
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function operatorTarget(t: TargetClock | null) {
  if (!t) return null;
  return {
    target: t.target,
    due: iso(t.due),
    state: t.state,
    ended_at: iso(t.endedAt),
    started_at: iso(t.startedAt),
    elapsed: t.elapsed,
    remaining: t.remaining,
    paused: t.paused,
    paused_since: iso(t.pausedSince),
    breached_at: iso(t.breachedAt),
    threshold: t.threshold,
  };
}

/** The promise as a client reads it: nothing where nothing is promised. */
function clientTarget(t: TargetClock | null) {
  if (!t || t.target === null) return null;
  return {
    target: t.target,
    due: iso(t.due),
    state: t.state === 'warning' ? 'running' : t.state,
    ended_at: iso(t.endedAt),
  };
}

interface AppliedRow {
  /** In the caller's language (German falls back to English, English to Dutch). */
  name: string;
  /**
   * Whether its calendar has hours (server/sla/policy.ts counts a contract without a schedule all day,
   * and a "24/7" one without holidays is every hour too).
   */
  businessHours: boolean;
}

/** What the answer says of the applied SLA besides its id: its name and whether it counts business hours. */
async function appliedRow(db: Db, auth: AuthContext, applied: AppliedSla | null): Promise<AppliedRow> {
  if (!applied) return { name: '', businessHours: false };
  const row = await db
    .selectFrom('slas as s')
    .leftJoin('business_hour_contracts as b', (join) =>
      join.onRef('b.id', '=', 's.business_hour_contract_id').on('b.tenant_id', '=', auth.tenantId),
    )
    .select(['s.name', 's.name_en', 's.name_de', 'b.schedule', 'b.holidays'])
    .where('s.tenant_id', '=', auth.tenantId)
    .where('s.id', '=', applied.slaId)
    .executeTakeFirst();
  if (!row) return { name: '', businessHours: false };
  const language = auth.language ?? 'nl';
  const chain = language === 'de' ? [row.name_de, row.name_en] : language === 'en' ? [row.name_en] : [];
  const name = chain.find((n) => typeof n === 'string' && n !== '') ?? row.name;
  // A "24/7" calendar counts every hour: only its holidays (if any) make its time business time.
  const allHours = row.schedule === '24/7' && !(Array.isArray(row.holidays) && row.holidays.length > 0);
  return { name, businessHours: row.schedule !== null && row.schedule !== undefined && !allHours };
}

function operatorAnswer(applied: AppliedSla | null, row: AppliedRow, clock: ClockResult) {
  return {
    applied: applied ? { sla_id: applied.slaId, name: row.name, source: applied.source } : null,
    business_hours: row.businessHours,
    open: clock.open,
    paused: clock.paused,
    first_response: operatorTarget(clock.first_response),
    next_response: operatorTarget(clock.next_response),
    next_response_breaches: clock.nextResponseBreaches,
    resolution: operatorTarget(clock.resolution),
  };
}

export const ticketSlaRoute: ActionPlugin = async (app, { db, registry }) => {
  const tickets = registry.require('tickets');
  const deps: Deps = { db, registry, validation: new BodyValidation() };

  app.get<RecordParams>(
    '/api/tickets/:id/sla',
    actionRoute({
      tag: tickets.name,
      operationId: 'ticketsSla',
      summary: "A ticket's SLA clock",
      description:
        "Measured at the request from the ticket's history. Operators (`tenant.tickets.show`) get the SLA that " +
        'applies and why, and per target its business minutes, due, elapsed and remaining time, pause and ' +
        'state. Clients (`portal.tickets.show`, a ticket they may see) get the promise only: the first ' +
        'response and the resolution, each its minutes, due, state and end; a 404 when the tenant setting ' +
        '`portal_show_sla` is off.',
      answers: { 200: { description: "The ticket's clock.", schema: ANSWER } },
    }),
    async (request: FastifyRequest<RecordParams>) => {
      const auth = await authorize(request, tickets, 'show');
      validInput(request);
      const { id } = request.params;
      // The ticket as GET /tickets/{id} finds it: the tenant, and for a client the portal's scope.
      await findRecord(deps, auth, tickets, id);
      const portal = isPortalCaller(auth);
      if (portal && !(await tenantFlag(db, auth.tenantId, PORTAL_SHOW_SLA, true))) throw notFound();
      const now = Date.now();
      const measured = await ticketClock(db, auth.tenantId, id, now, tenantToday(now));
      if (!measured) throw notFound();
      const { applied, clock } = measured;
      const row = await appliedRow(db, auth, applied);
      if (!portal) return operatorAnswer(applied, row, clock);
      return {
        business_hours: row.businessHours,
        first_response: applied ? clientTarget(clock.first_response) : null,
        resolution: applied ? clientTarget(clock.resolution) : null,
      };
    },
  );
};
