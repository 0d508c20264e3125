import settings from '../data/settings.json' with { type: 'json' };
import products from '../data/products.json' with { type: 'json' };
import { byName, fail, json, type Row, type SeedContext } from './context.ts';

/*
 * The tenant's roles and permissions, its named lists (statuses, priorities, categories, SLAs, products
 * …) and, last, the admin's presets, views and configs.
 */

/** The tenant's settings: a first-line operator reads them, only second line changes them (issue 6). */
export const TENANT_SETTINGS: readonly string[] = settings.tenantSettings;

export const TENANT = settings.tenant;
export const TICKET_STATUSES = settings.ticketStatuses;

export interface Product {
  id: number;
  product_code: string;
  product_name: string;
  unit: string;
  price: number;
  purchase_price: number | null;
}

/** The ids of the named lists, by name where other parts look them up by name. */
export interface Lists {
  roles: Map<string, number>;
  countries: Map<string, number>;
  slaIds: Map<string, number>;
  categoryIds: Map<string, number>;
  statusIds: number[];
  priorityIds: number[];
  ticketTypeIds: Map<string, number>;
  ticketTypeList: number[];
  ticketSourceIds: number[];
  locationIds: Map<string, number>;
  assetCategoryIds: Map<string, number>;
  assetStatusIds: Map<string, number>;
  activityIds: number[];
  serviceIds: Map<string, number>;
  product(code: string): Product;
}

/**
 * The roles and their permissions. Issue 6: second line holds every permission (grants_all); first
 * line does the daily work but does not merge, archive or delete companies, touch invoices, or change
 * the tenant's settings (these lists it reads only). The list is in docs/decisions.md and README's demo
 * accounts.
 */
async function seedRoles(ctx: SeedContext): Promise<Map<string, number>> {
  const { db } = ctx;
  const roles = byName(
    settings.roles.map((r) => r.name),
    await ctx.list('roles', settings.roles),
  );
  const [secondLineRole, firstLineRole, clientRole] = [...roles.values()];
  const permissions = await db.selectFrom('permissions').select(['id', 'name']).execute();
  const firstLineMay = (name: string) => {
    const [, resource, action] = name.split('.') as [string, string, string];
    if (resource === 'invoices' || resource === 'invoice-lines') return false;
    if (['invoice', 'deinvoice', 'merge'].includes(action)) return false;
    if (resource === 'companies' && (action === 'archive' || action === 'destroy')) return false;
    if (TENANT_SETTINGS.includes(resource)) return action === 'index' || action === 'show';
    return true;
  };
  const grants: Row[] = [];
  for (const p of permissions) {
    const name = String(p.name);
    if (name.startsWith('tenant.')) grants.push({ role_id: secondLineRole, permission_id: p.id });
    if (name.startsWith('tenant.') && firstLineMay(name))
      grants.push({ role_id: firstLineRole, permission_id: p.id });
    if (name.startsWith('portal.')) grants.push({ role_id: clientRole, permission_id: p.id });
  }
  await db
    .insertInto('permission_role')
    .values(grants)
    .onConflict((oc) => oc.doNothing())
    .execute();
  return roles;
}

const named = async (ctx: SeedContext, table: string, rows: { name: string }[]) =>
  byName(
    rows.map((r) => r.name),
    await ctx.list(table, rows),
  );
const fromNames = (names: string[]) => names.map((name) => ({ name }));

export async function seedLists(ctx: SeedContext): Promise<Lists> {
  const roles = await seedRoles(ctx);
  const countries = await named(ctx, 'countries', settings.countries);
  const hours = await named(
    ctx,
    'business_hour_contracts',
    settings.businessHourContracts.map((c) => ({ ...c, schedule: json(c.schedule) })),
  );
  const slaIds = await named(
    ctx,
    'slas',
    settings.slas.map(({ business_hours, ...sla }) => ({
      ...sla,
      business_hour_contract_id: hours.get(business_hours) ?? fail(`no business hours ${business_hours}`),
    })),
  );
  const categoryIds = await named(ctx, 'categories', fromNames(settings.categories));
  // Issue 18 item 6: a few standard answers, in Dutch as the demo data, some of them for a category.
  await ctx.list(
    'standard_answers',
    settings.standardAnswers.map(({ category, ...answer }) => ({
      ...answer,
      category_id: category === null ? null : (categoryIds.get(category) ?? fail(`no category ${category}`)),
    })),
  );
  const statusIds = await ctx.list(
    'ticket_statuses',
    settings.ticketStatuses.map((s, i) => ({ ...s, order: i + 1 })),
  );
  const priorityIds = await ctx.list(
    'priorities',
    settings.priorities.map((p, i) => ({ ...p, order: i + 1 })),
  );
  const ticketTypeList = await ctx.list('ticket_types', fromNames(settings.ticketTypes));
  const ticketSourceIds = await ctx.list('ticket_sources', fromNames(settings.ticketSources));
  const locationIds = await named(ctx, 'locations', settings.locations);
  const assetCategoryIds = await named(ctx, 'asset_categories', fromNames(settings.assetCategories));
  const assetStatusIds = await named(ctx, 'asset_statuses', settings.assetStatuses);
  const activityIds = await ctx.list('activities', settings.activities);
  const serviceIds = await named(ctx, 'services', settings.services);
  await ctx.list('prepaid_cards', settings.prepaidCards);
  const productIds = await ctx.list(
    'products',
    products.map((p) => ({ ...p, description: null, vat_percentage: 21 })),
  );
  const byCode = new Map(products.map((p, i) => [p.product_code, { ...p, id: productIds[i]! }]));
  return {
    roles,
    countries,
    slaIds,
    categoryIds,
    statusIds,
    priorityIds,
    ticketTypeIds: byName(settings.ticketTypes, ticketTypeList),
    ticketTypeList,
    ticketSourceIds,
    locationIds,
    assetCategoryIds,
    assetStatusIds,
    activityIds,
    serviceIds,
    product: (code) => byCode.get(code) ?? fail(`no product ${code}`),
  };
}

/** The admin's presets, views and configs; the tenant's configs. */
export async function seedPreferences(ctx: SeedContext, lists: Lists, adminId: number): Promise<void> {
  const { statusIds, priorityIds } = lists;
  const ticketColumns = json([
    'reference',
    'description',
    'status_id',
    'priority_id',
    'company_id',
    'updated_at',
  ]);
  await ctx.list('table_presets', [
    {
      user_id: adminId,
      label: 'Mijn open tickets',
      styling: 'primary',
      type: 'tickets',
      columns_config: ticketColumns,
      order_config: json(['updated_at', 'desc']),
      filter_config: json([
        { where: ['operator_id', '=', 'me'] },
        { whereIn: ['status_id', statusIds.slice(0, 5)] },
      ]),
      pagination_config: json({ perPage: 25 }),
      order: 1,
    },
    {
      user_id: adminId,
      label: 'Hoge prioriteit',
      styling: 'error',
      type: 'tickets',
      columns_config: ticketColumns,
      order_config: json(['updated_at', 'desc']),
      filter_config: json([{ whereIn: ['priority_id', priorityIds.slice(2)] }]),
      pagination_config: json({ perPage: 15 }),
      order: 2,
    },
    {
      user_id: adminId,
      label: 'Contracten op volgorde van einddatum',
      styling: null,
      type: 'contracts',
      columns_config: json(['name', 'period', 'quantity', 'minutes_remaining', 'end_date']),
      order_config: json(['end_date', 'asc']),
      filter_config: json([]),
      pagination_config: json({ perPage: 15 }),
      order: 1,
    },
  ]);
  await ctx.list('settings_views', [
    { user_id: adminId, label: 'Alle tickets', type: 'tickets', order: 1, is_default: true },
    { user_id: adminId, label: 'Mijn tickets', type: 'tickets', order: 2, is_default: false },
    { user_id: adminId, label: 'Wacht op klant', type: 'tickets', order: 3, is_default: false },
    { user_id: adminId, label: 'Alle contracten', type: 'contracts', order: 1, is_default: true },
  ]);
  await ctx.list('user_configs', [
    { user_id: adminId, name: 'locale', value: 'nl' },
    { user_id: adminId, name: 'tickets.perPage', value: '25' },
    // Issue 18 item 4: second line dispatches, so the admin's ticket list starts on all tickets (their
    // choice of default view); an operator without a choice starts on their own open tickets.
    { user_id: adminId, name: 'view:tickets.index', value: json('system:all') },
  ]);
  // A mailbox to show how one is connected (issue 19): switched off, without a password, so nothing is fetched.
  await ctx.list('mailboxes', [
    {
      name: 'Support',
      host: 'imap.example.com',
      port: 993,
      tls: true,
      username: 'support@example.com',
      active: false,
      reply_to: 'support@example.com',
    },
  ]);
  await ctx.list('tenant_configs', [
    { name: 'company_name', value: TENANT.name },
    { name: 'ticket_reference_prefix', value: 'T' },
    { name: 'default_ticket_status_id', value: String(statusIds[0]) },
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
