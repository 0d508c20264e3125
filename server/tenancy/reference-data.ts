import settings from '../db/seed/data/settings.json' with { type: 'json' };
import { byName, fail, json, type SeedContext } from '../db/seed/demo/context.ts';
import type { Tables } from '../db/tables.ts';
import { ROLE_NAMES, startingRoleMay } from '../db/seed/permissions.ts';
import { seedCompanyRoles, type CompanyRoleKey } from './company-roles.ts';

/*
 * What every tenant starts with, the demo's and a provider's own alike (issue 32): the roles and their
 * permissions, the named lists a ticket needs (statuses, priorities, types, sources, categories), the
 * standard SLAs with their business hours, countries, asset categories and statuses, activities, and
 * the tenant's settings. The names are the demo's, in Dutch with their English and German columns
 * (../db/seed/translations.ts). No companies, people, products or tickets: those are the demo's only.
 */

/** The tenant's settings: a first-line operator reads them, only second line changes them (issue 6). */
export const TENANT_SETTINGS: readonly string[] = settings.tenantSettings;

/** The roles in the order of settings.json: second line, first line, client. */
export { ROLE_NAMES };

/** The ids of the reference lists, by name where other parts look them up by name. */
export interface ReferenceLists {
  roles: Map<string, number>;
  /** The portal's company roles (issue 39) by key: member, admin, finance. */
  companyRoles: Map<CompanyRoleKey, number>;
  countries: Map<string, number>;
  slaIds: Map<string, number>;
  categoryIds: Map<string, number>;
  statusIds: number[];
  priorityIds: number[];
  ticketTypeIds: Map<string, number>;
  ticketTypeList: number[];
  ticketSourceIds: number[];
  assetCategoryIds: Map<string, number>;
  assetStatusIds: Map<string, number>;
  activityIds: number[];
}

const named = async (ctx: SeedContext, table: keyof Tables, rows: { name: string }[]) =>
  byName(
    rows.map((r) => r.name),
    await ctx.list(table, rows),
  );
const fromNames = (names: string[]) => names.map((name) => ({ name }));

/**
 * The roles and their permissions (startingRoleMay). Issue 6: second line holds every permission
 * (grants_all); first line does the daily work but does not merge, archive or delete companies, touch
 * invoices, or change the tenant's settings (these lists it reads only). The list is in docs/decisions.md and docs/product.md's demo
 * accounts. The permissions themselves must exist (syncPermissions) before this runs.
 */
async function seedRoles(ctx: SeedContext): Promise<Map<string, number>> {
  const { db } = ctx;
  const roles = byName(ROLE_NAMES, await ctx.list('roles', settings.roles));
  const [secondLineRole, firstLineRole, clientRole] = [...roles.values()] as [number, number, number];
  const permissions = await db.selectFrom('permissions').select(['id', 'name']).execute();
  const grants: { role_id: number; permission_id: number }[] = [];
  for (const p of permissions) {
    for (const [index, role_id] of [secondLineRole, firstLineRole, clientRole].entries())
      if (startingRoleMay(index, String(p.name))) grants.push({ role_id, permission_id: p.id });
  }
  await db
    .insertInto('permission_role')
    .values(grants)
    .onConflict((oc) => oc.doNothing())
    .execute();
  return roles;
}

/** Inserts the reference lists of a new tenant (ids per table start where that table's sequence is). */
export async function seedReferenceLists(ctx: SeedContext): Promise<ReferenceLists> {
  const roles = await seedRoles(ctx);
  const countries = await named(ctx, 'countries', settings.countries);
  const hours = await named(
    ctx,
    'business_hour_contracts',
    settings.businessHourContracts.map((c) => ({
      ...c,
      schedule: json(c.schedule),
      holidays: json('holidays' in c ? c.holidays : []),
    })),
  );
  const slaIds = await named(
    ctx,
    'slas',
    settings.slas.map(({ business_hours, warning_percentages, ...sla }) => ({
      ...sla,
      warning_percentages: json(warning_percentages),
      business_hour_contract_id: hours.get(business_hours) ?? fail(`no business hours ${business_hours}`),
    })),
  );
  const categoryIds = await named(ctx, 'categories', fromNames(settings.categories));
  const statusIds = await ctx.list(
    'ticket_statuses',
    // The SLA clock stops while a ticket waits for the client or is scheduled (internal types 4 and 6).
    settings.ticketStatuses.map((s, i) => ({
      ...s,
      order: i + 1,
      pauses_sla: [4, 6].includes(s.internal_type),
    })),
  );
  const priorityIds = await ctx.list(
    'priorities',
    settings.priorities.map((p, i) => ({ ...p, order: i + 1 })),
  );
  const priorityByLabel = byName(
    settings.priorities.map((p) => p.label),
    priorityIds,
  );
  // Targets of a priority that differ from its SLA's own (settings.json slaTargets, business minutes):
  // Business answers a critical ticket within the hour; every other priority has the SLA's targets.
  await ctx.list(
    'sla_targets',
    settings.slaTargets.map(({ sla, priority, ...targets }) => ({
      ...targets,
      sla_id: slaIds.get(sla) ?? fail(`no SLA ${sla}`),
      priority_id: priorityByLabel.get(priority) ?? fail(`no priority ${priority}`),
    })),
  );
  const ticketTypeList = await ctx.list('ticket_types', fromNames(settings.ticketTypes));
  const ticketSourceIds = await ctx.list('ticket_sources', fromNames(settings.ticketSources));
  const assetCategoryIds = await named(ctx, 'asset_categories', fromNames(settings.assetCategories));
  const assetStatusIds = await named(ctx, 'asset_statuses', settings.assetStatuses);
  const activityIds = await ctx.list('activities', settings.activities);
  const companyRoles = await seedCompanyRoles(ctx);
  return {
    roles,
    companyRoles,
    countries,
    slaIds,
    categoryIds,
    statusIds,
    priorityIds,
    ticketTypeIds: byName(settings.ticketTypes, ticketTypeList),
    ticketTypeList,
    ticketSourceIds,
    assetCategoryIds,
    assetStatusIds,
    activityIds,
  };
}

/** The tenant's own settings (tenant_configs): its name, ticket numbering, defaults and portal form. */
export async function seedTenantConfigs(
  ctx: SeedContext,
  lists: Pick<ReferenceLists, 'statusIds'>,
  companyName: string,
): Promise<void> {
  await ctx.list('tenant_configs', [
    { name: 'company_name', value: companyName },
    { name: 'ticket_reference_prefix', value: 'T' },
    { name: 'default_ticket_status_id', value: String(lists.statusIds[0]) },
    { name: 'time_rounding_minutes', value: '15' },
    {
      name: 'portal_ticket_fields',
      value: json([
        { field: 'description', required: true },
        { field: 'priority_id', required: true },
        { field: 'asset_id', required: false },
      ]),
    },
  ]);
}
