/**
 * GET /api/portal/service-overview (issue 36, item 3): the client portal's service overview
 * (./service-overview.ts) of one of the caller's companies or all of them, over the last 12 months or a
 * calendar year. Clients whose role holds `portal.reports.index` only: operators and clients without it
 * get 403 (as every call a permission is missing for). A company that is not the caller's is a 404,
 * as a record the caller may not see.
 */
import { reachOf } from '../auth/company-roles.ts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { validating, validInput } from '../http/route-validation.ts';
import { actionSchema } from '../docs/action-schema.ts';
import type { Schema } from '../docs/refs.ts';
import { SERVICE_OVERVIEW_PERMISSION } from '../../common/service-overview.ts';
import { pickLocale } from '../exports/messages.ts';
import { tenantToday } from '../sla/stored-clock.ts';
import { DATE, ID } from './route-parts.ts';
import { overviewRange, serviceOverview } from './service-overview.ts';

const COUNT: Schema = { type: ['integer', 'null'] };
const MINUTES: Schema = { type: ['number', 'null'] };

const FIGURES: Record<string, Schema> = {
  opened: { type: 'integer' },
  solved: { type: 'integer' },
  response_median: MINUTES,
  resolution_median: MINUTES,
  response_met: COUNT,
  response_breached: COUNT,
  resolution_met: COUNT,
  resolution_breached: COUNT,
};

const NAMED: Schema = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: { type: 'integer' }, name: { type: 'string' } },
};

const ANSWER: Schema = {
  type: 'object',
  required: ['companies', 'company_id', 'from', 'to', 'months', 'total', 'targets', 'contracts'],
  properties: {
    companies: { type: 'array', items: NAMED },
    company_id: { type: ['integer', 'null'] },
    from: DATE,
    to: DATE,
    months: {
      type: 'array',
      items: {
        type: 'object',
        required: ['month', ...Object.keys(FIGURES)],
        properties: { month: DATE, ...FIGURES },
      },
    },
    total: { type: 'object', required: Object.keys(FIGURES), properties: FIGURES },
    targets: {
      type: ['array', 'null'],
      items: {
        type: 'object',
        required: ['priority_id', 'priority', 'response_time', 'resolution_time'],
        properties: {
          priority_id: { type: ['integer', 'null'] },
          priority: { type: ['string', 'null'] },
          response_time: COUNT,
          resolution_time: COUNT,
        },
      },
    },
    contracts: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'id',
          'contract_id',
          'contract_name',
          'prepaid',
          'period_start',
          'period_end',
          'minutes_total',
          'registered_time',
          'minutes_remaining',
        ],
        properties: {
          id: { type: 'integer' },
          contract_id: { type: 'integer' },
          contract_name: { type: 'string' },
          prepaid: { type: 'boolean' },
          period_start: DATE,
          period_end: { type: ['string', 'null'], format: 'date' },
          minutes_total: { type: 'integer' },
          registered_time: { type: 'integer' },
          minutes_remaining: { type: 'integer' },
        },
      },
    },
  },
};

const SCHEMA = actionSchema({
  tag: 'reports',
  operationId: 'portalServiceOverview',
  summary: "The client's service overview: tickets, response and resolution times, SLA and contract hours",
  description:
    "For the caller's companies (or one of them), per month over the last 12 months or a calendar year: " +
    'tickets `opened` and `solved`, the median business minutes to the first answer and to the solving, ' +
    'and how many SLA targets ended met or breached (null when the desk shows no SLA promise, the setting ' +
    '`portal_show_sla`); the SLA targets that applied per priority; and the current contract periods and ' +
    'prepaid cards with their minutes, what is registered on them and what remains. Clients with ' +
    `\`${SERVICE_OVERVIEW_PERMISSION}\` only; a company that is not the caller's is a 404.`,
  params: false,
  query: {
    company_id: { ...ID, description: "One of the caller's companies; absent: all of them." },
    year: {
      type: 'integer',
      minimum: 2000,
      maximum: 2100,
      description: 'A calendar year; absent: the last 12 months up to the end of this one.',
    },
  },
  answers: { 200: { description: 'The overview.', schema: ANSWER } },
  errors: [401, 403, 404, 422],
});

export async function serviceOverviewRoutes(app: FastifyInstance, { db }: { db: Db }): Promise<void> {
  app.get('/api/portal/service-overview', validating(SCHEMA), async (request) => {
    const auth = await request.getAuth();
    if (auth.kind !== 'client' || !auth.permissions.has(SERVICE_OVERVIEW_PERMISSION)) throw forbidden();
    validInput(request);
    const { company_id, year } = request.query as { company_id?: number; year?: number };
    // The caller's companies are those whose tickets its company role sees company-wide (issue 39): the
    // overview's figures are of all of a company's tickets, so a member sees none of them.
    const wide = reachOf(auth.companyRoles, 'tickets').company;
    if (company_id !== undefined && !wide.includes(company_id)) throw notFound();
    const companyIds = company_id === undefined ? wide : [company_id];
    const companies = wide.length
      ? await db
          .selectFrom('companies')
          .select(['id', 'name'])
          .where('tenant_id', '=', auth.tenantId)
          .where('id', 'in', wide)
          .orderBy('name')
          .orderBy('id')
          .execute()
      : [];
    const today = tenantToday(Date.now());
    const { from, to } = overviewRange(today, year);
    if (companyIds.length === 0) {
      // A client of no company sees no figures: the portal shows them nothing of anyone's.
      const total = Object.fromEntries(Object.keys(FIGURES).map((k) => [k, k.endsWith('median') ? null : 0]));
      return { companies: [], company_id: null, from, to, months: [], total, targets: null, contracts: [] };
    }
    const overview = await serviceOverview(db, auth.tenantId, {
      companyIds,
      from,
      to,
      contractsOn: today,
      locale: pickLocale(undefined, request.headers['accept-language']),
    });
    return {
      companies: companies.map((c) => ({ id: Number(c.id), name: c.name })),
      company_id: company_id ?? null,
      ...overview,
    };
  });
}
