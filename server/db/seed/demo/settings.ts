import settings from '../data/settings.json' with { type: 'json' };
import products from '../data/products.json' with { type: 'json' };
import { byName, fail, json, type SeedContext } from './context.ts';
import type { Tables } from '../../tables.ts';
import {
  seedReferenceLists,
  seedTenantConfigs,
  type ReferenceLists,
} from '../../../tenancy/reference-data.ts';

/*
 * The demo tenant's lists: every tenant's reference lists and settings (../../../tenancy/reference-data.ts),
 * then the demo's own (standard answers, locations, services, prepaid cards, products) and, last, the
 * admin's presets, views and configs.
 */

export { TENANT_SETTINGS } from '../../../tenancy/reference-data.ts';

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

/** The ids of the named lists: every tenant's reference lists and the demo's own. */
export interface Lists extends ReferenceLists {
  locationIds: Map<string, number>;
  serviceIds: Map<string, number>;
  product(code: string): Product;
}

const named = async (ctx: SeedContext, table: keyof Tables, rows: { name: string }[]) =>
  byName(
    rows.map((r) => r.name),
    await ctx.list(table, rows),
  );

export async function seedLists(ctx: SeedContext): Promise<Lists> {
  const reference = await seedReferenceLists(ctx);
  await seedTenantConfigs(ctx, reference, TENANT.name);
  // Issue 18 item 6: a few standard answers, in Dutch as the demo data, some of them for a category.
  await ctx.list(
    'standard_answers',
    settings.standardAnswers.map(({ category, ...answer }) => ({
      ...answer,
      category_id:
        category === null ? null : (reference.categoryIds.get(category) ?? fail(`no category ${category}`)),
    })),
  );
  const locationIds = await named(ctx, 'locations', settings.locations);
  const serviceIds = await named(ctx, 'services', settings.services);
  await ctx.list('prepaid_cards', settings.prepaidCards);
  const productIds = await ctx.list(
    'products',
    products.map((p) => ({ ...p, description: null, vat_percentage: 21 })),
  );
  const byCode = new Map(products.map((p, i) => [p.product_code, { ...p, id: productIds[i]! }]));
  return {
    ...reference,
    locationIds,
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
}
