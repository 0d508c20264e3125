import type { Db } from '../database.ts';
import type { Registry } from '../../schema/registry.ts';
import { ROLE_NAMES, syncPermissions } from './permissions.ts';
import { SERVICE_OVERVIEW_PERMISSION } from '../../../common/service-overview.ts';
import { insert, seedContext, type DemoOptions } from './demo/context.ts';
import { seedLists, seedPreferences, TENANT } from './demo/settings.ts';
import { COMPANIES, seedPeople } from './demo/people.ts';
import { assetNumbering, seedAssets } from './demo/assets.ts';
import { invoiceNumbering, seedSales, seedUsedProducts } from './demo/sales.ts';
import { seedTicketGroups, seedTickets, type DemoCompany } from './demo/tickets.ts';
import { seedTicketShares } from './demo/shares.ts';
import { seedCustomFields } from './demo/custom-fields.ts';
import { seedRows } from './demo/rows.ts';
import { seedSlaDemo, storeDemoClocks } from './demo/sla.ts';

/*
 * The demo data of DESIGN.md section 9: tenant "Acme IT" with two operators and two clients, each client
 * with a company that has tickets in every status with message threads, assets, a contract with hours
 * per period and a prepaid contract, subscriptions, quotes in every status, invoices in every status and
 * time registrations. Nothing of one client's company points at the other's. Its SLAs are on the
 * contracts, the companies and the tenant, and a dozen tickets show the SLA clock in every state
 * (demo/sla.ts); every ticket's clock is stored by the seed, as the write paths would have.
 *
 * Deterministic: the only randomness is a seeded generator; dates are relative to `now` (whole days).
 * The fixed names and rows are in data/*.json; the parts in demo/ insert and link them. A resource's
 * rows may also be data alone, data/rows/<resource>.json (demo/rows.ts), inserted last. The order of
 * the calls below is part of the data: it fixes every id and the generator's sequence (tests assert
 * both), so a new part goes at the end.
 */

export type { DemoOptions } from './demo/context.ts';
export { TENANT_SETTINGS } from './demo/settings.ts';

/** Fills an empty database with the demo tenant. The caller decides that the database is empty. */
export async function seedDemo(db: Db, registry: Registry, opts: DemoOptions): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await syncPermissions(trx, registry);
    const { tenantId, now } = await seed(trx, registry, opts);
    // Rows written around the write paths: their SLA clocks measured here, as the paths would have.
    await storeDemoClocks(trx, tenantId, now);
  });
}

async function seed(db: Db, registry: Registry, opts: DemoOptions): Promise<{ tenantId: number; now: Date }> {
  const [tenantId] = await insert(db, 'tenants', [TENANT]);
  const ctx = seedContext(db, opts, tenantId!);
  const lists = await seedLists(ctx);
  const people = await seedPeople(ctx, lists);

  // Per company, everything that does not need ticket ids.
  const assetNumbers = assetNumbering();
  const invoiceNumbers = invoiceNumbering();
  const companies: DemoCompany[] = [];
  for (const [index, plan] of COMPANIES.entries()) {
    const company = { index, id: people.companyIds[index]!, plan, clients: people.clientsOf[index]! };
    const assetIds = await seedAssets(ctx, lists, assetNumbers, company, people.operators);
    const groupIds = await seedTicketGroups(ctx, company);
    const sales = await seedSales(ctx, lists, invoiceNumbers, company, people);
    companies.push({ ...company, assetIds, groupIds, ...sales });
  }

  const tickets = await seedTickets(ctx, lists, people, companies);
  await seedUsedProducts(
    ctx,
    lists,
    companies.map((company) => ({
      ...company,
      ticketIds: tickets.ids.filter((_, i) => tickets.plans[i]!.company === company),
    })),
  );
  await seedTicketShares(ctx, people);
  await seedCustomFields(ctx, companies, tickets);
  await seedPreferences(ctx, lists, people.adminId);
  await seedSlaDemo(ctx, lists, people, companies);
  // Last: the rows of data/rows/<resource>.json, a resource's demo without seed code (issue 34).
  await seedRows(ctx, registry, tenantId!, opts.rowsDir);
  await grantServiceOverview(db, tenantId!);
  return { tenantId: tenantId!, now: ctx.now };
}

/**
 * The demo's clients see the portal's service overview (issue 36, item 3), which a new desk's client
 * role does not get by default (startingRoleMay): the demo shows what a provider can turn on.
 */
async function grantServiceOverview(db: Db, tenantId: number): Promise<void> {
  await db
    .insertInto('permission_role')
    .columns(['role_id', 'permission_id'])
    .expression((eb) =>
      eb
        .selectFrom('roles as r')
        .crossJoin('permissions as p')
        .select(['r.id', 'p.id as permission_id'])
        .where('r.tenant_id', '=', tenantId)
        .where('r.name', '=', ROLE_NAMES[2])
        .where('p.name', '=', SERVICE_OVERVIEW_PERMISSION),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}
