import { at, type SeedContext } from './context.ts';
import type { Client, CompanyPlan, Person } from './people.ts';
import type { Lists } from './settings.ts';

/* A company's assets in every status, some with a client, some out of warranty, with their category. */

/** Counts across companies, so serial and tracking numbers never repeat. */
export const assetNumbering = () => ({ serial: 0 });

export async function seedAssets(
  ctx: SeedContext,
  lists: Lists,
  numbering: { serial: number },
  company: { index: number; id: number; plan: CompanyPlan; clients: Client[] },
  operators: Person[],
): Promise<number[]> {
  const { plan, clients, index: ci } = company;
  const assetIds = await ctx.list(
    'assets',
    plan.assets.map((a, i) => ({
      company_id: company.id,
      name: a.name,
      description: `${a.category} van ${plan.name}`,
      serial_number: `SN${(7340 + ci * 100 + ++numbering.serial).toString(36).toUpperCase()}${1000 + i * 37}`,
      tracking_number: a.status === 'Besteld' ? `3SDEVC${4410 + numbering.serial}` : null,
      warranty_until: a.warrantyDays === null ? null : ctx.dateIn(a.warrantyDays),
      purchase_date: a.warrantyDays === null ? null : ctx.dateIn(a.warrantyDays - 1095),
      client_id: a.client === null ? null : clients[a.client]!.id,
      location_id: lists.locationIds.get(a.location),
      operator_id: at(operators, i).id,
      asset_status_id: lists.assetStatusIds.get(a.status),
      created_at: ctx.daysAgo(400 - i * 20),
      updated_at: ctx.daysAgo(30 - i),
    })),
  );
  await ctx.db
    .insertInto('asset_category')
    .values(
      plan.assets.map((a, i) => ({
        asset_id: assetIds[i]!,
        asset_category_id: lists.assetCategoryIds.get(a.category)!,
      })),
    )
    .execute();
  return assetIds;
}
