/**
 * The lists the apps load once at login (SPEC section 3: "lists loaded at login"), read through the same
 * generic list code as any call: a caller gets only the lists, rows and fields it may see.
 */
import type { Db } from '../db/database.ts';
import type { Registry } from '../schema/registry.ts';
import type { AuthContext } from './context.ts';
import { parseBuilderConditions } from '../query/parse.ts';
import { listRows } from '../resources/repository.ts';
import { may } from './may.ts';
import { BodyValidation } from '../schema/validate.ts';

/** List name in the response -> the resource it reads. */
const RESOURCE_LISTS: Record<string, string> = {
  activities: 'activities',
  asset_categories: 'asset-categories',
  asset_statuses: 'asset-statuses',
  business_hour_contracts: 'business-hour-contracts',
  categories: 'categories',
  operators: 'operators',
  configs: 'config',
  countries: 'countries',
  custom_fields: 'custom-fields',
  prepaid_cards: 'prepaid-cards',
  permissions: 'permissions',
  priorities: 'priorities',
  products: 'products',
  roles: 'roles',
  services: 'services',
  slas: 'slas',
  ticket_statuses: 'ticket-statuses',
  ticket_sources: 'ticket-sources',
  ticket_types: 'ticket-types',
  table_presets: 'table-presets',
};

/** List name -> enumeration of schemas/_enums.json. */
const ENUM_LISTS: Record<string, string> = {
  operator_types: 'operatorLines',
  contract_periods: 'contractPeriods',
  subscription_periods: 'subscriptionPeriods',
};

/** Lists that hold rows of every user: only the caller's own. */
const OWN_ROWS = new Set(['table_presets']);

/** Lists keyed by a field instead of being an array (SPEC: custom fields keyed by name). */
const KEYED_BY: Record<string, string> = { custom_fields: 'name' };

const LIST_LIMIT = 1000;
const validation = new BodyValidation();

export async function loadLoginLists(
  deps: { db: Db; registry: Registry },
  auth: AuthContext,
): Promise<Record<string, unknown>> {
  const repo = { ...deps, validation };
  const lists: Record<string, unknown> = {};
  for (const [list, name] of Object.entries(ENUM_LISTS)) {
    const values = deps.registry.enums[name]?.values;
    if (values) lists[list] = values;
  }
  const readable = Object.entries(RESOURCE_LISTS).filter(([, name]) => {
    const resource = deps.registry.get(name);
    return resource && may(auth, resource, 'index');
  });
  await Promise.all(
    readable.map(async ([list, name]) => {
      const resource = deps.registry.require(name);
      const conditions = OWN_ROWS.has(list)
        ? parseBuilderConditions(
            { registry: deps.registry, auth },
            resource,
            [{ where: ['user_id', '=', 'me'] }],
            list,
          )
        : [];
      const [field, direction] = resource.defaultSort;
      // No totals: the apps use the rows only.
      const data = await listRows(repo, auth, resource, {
        conditions,
        sort: [{ field: resource.fields[field]!, direction }],
        perPage: LIST_LIMIT,
        page: 1,
        with: {},
        withCount: [],
      });
      const key = KEYED_BY[list];
      lists[list] = key ? Object.fromEntries(data.map((row) => [row[key], row])) : data;
    }),
  );
  return lists;
}
