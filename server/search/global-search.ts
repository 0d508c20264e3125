/**
 * The back office's global search (issue 18 item 2): every resource whose schema has `x-global-search`
 * and that the caller may list, searched for one text in at most two statements, a few rows per
 * resource. Which resources and fields come from the schemas only; the tenant, fixed conditions and
 * (for clients) the portal scope come from baseConditions, the one place every read goes through.
 */
import { sql, type RawBuilder } from 'kysely';
import type { AuthContext } from '../auth/context.ts';
import { may } from '../auth/may.ts';
import type { Db } from '../db/database.ts';
import type { Registry } from '../schema/registry.ts';
import type { Field, Resource } from '../../common/schema/types.ts';
import { readableFields } from '../query/visibility.ts';
import { baseConditions, sqlContext } from '../query/sql.ts';
import { and, containsPattern, fieldValue, or, ref, tableAs } from '../query/fragments.ts';

/** Rows per resource: enough to pick from while typing; the list screen has the rest. */
export const ROWS_PER_GROUP = 5;
/** Below three characters a trigram index cannot narrow a substring search (pg_trgm): a full scan. */
export const MIN_SEARCH_LENGTH = 3;
export const MAX_SEARCH_LENGTH = 100;
/** The detail line is a hint beside the label, not the whole text. */
const DETAIL_LENGTH = 120;

export interface SearchHit {
  id: number;
  label: string;
  detail: string | null;
}

export interface SearchGroup {
  resource: string;
  records: SearchHit[];
}

interface Plan {
  resource: Resource;
  fields: Field[];
  label: Field | undefined;
  detail: Field | undefined;
}

/**
 * What the caller searches: the resources they may list, by `order`, each with the fields they may
 * read (a client never finds a record by a field the portal does not show them).
 */
export function searchPlan(registry: Registry, auth: AuthContext): Plan[] {
  const plans: Plan[] = [];
  const searchable = [...registry.resources.values()]
    .filter((r) => r.globalSearch && may(auth, r, 'index'))
    .sort((a, b) => a.globalSearch!.order - b.globalSearch!.order || a.name.localeCompare(b.name));
  for (const resource of searchable) {
    const readable = new Map(readableFields(resource, auth).map((f) => [f.name, f]));
    const fields = resource.globalSearch!.fields.flatMap((name) => readable.get(name) ?? []);
    if (fields.length === 0) continue;
    const label = readable.get(resource.label) ?? readable.get(resource.portal?.label ?? '');
    const detail = fields.find((f) => f !== label);
    plans.push({ resource, fields, label, detail });
  }
  return plans;
}

/**
 * How a group's rows are found. `recent`: the matches among the newest rows of the list's own order
 * (its index walks them; a common word is found at once). `all`: every match through the trigram
 * indexes, then the newest of them (a rare word: few matches to sort). Neither alone is fast for every
 * word: the planner cannot tell how many rows a substring matches, and walked the whole list (seconds
 * at a million tickets) for a word that no row holds.
 */
type Reach = 'recent' | 'all';
/** How many of the newest rows `recent` looks at; a group with fewer matches there asks `all`. */
export const RECENT_WINDOW = 2_000;

type Hit = { group: number; place: number; id: number; label: string; detail: string | null };

/** One statement: a UNION ALL of one ordered, limited select per resource. */
function searchStatement(
  registry: Registry,
  auth: AuthContext,
  plans: { plan: Plan; group: number }[],
  pattern: string,
  reach: Reach,
) {
  const ctx = sqlContext(registry, auth);
  const language = auth.language ?? 'nl';
  const selects = plans.map(({ plan: { resource, fields, label, detail }, group }) => {
    const alias = ctx.nextAlias();
    const text = (field: Field | undefined): RawBuilder<unknown> =>
      field ? sql`${fieldValue(alias, field, language)}::text` : sql`null::text`;
    const base = and(baseConditions(ctx, resource, alias));
    const matches = or(fields.map((f) => sql`${fieldValue(alias, f, language)} ilike ${pattern}`));
    // The list's own order (query/select.ts): the default sort, then id, in one direction, so that the
    // index that serves the list's first page (0008: tenant, updated_at desc, id desc) serves this too.
    const [sortField, direction] = resource.defaultSort;
    const dir = sql.raw(direction);
    const ordering = sql`${ref(alias, resource.fields[sortField]!.column)} ${dir}, ${ref(alias, 'id')} ${dir}`;
    const table = tableAs(resource, alias);
    // The inner select's alias is the outer one's too: the column references read the same either way.
    // OFFSET 0 keeps `all` a subquery of its own: the trigram indexes find the matches, then they are sorted.
    const rows =
      reach === 'recent'
        ? sql`(select ${sql.ref(alias)}.* from ${table} where ${base} order by ${ordering} limit ${RECENT_WINDOW}) as ${sql.id(alias)} where ${matches}`
        : sql`(select ${sql.ref(alias)}.* from ${table} where ${base} and ${matches} offset 0) as ${sql.id(alias)}`;
    // The place within the group travels with the row: UNION ALL promises no order (a parallel plan
    // interleaves its branches).
    return sql`(select ${group}::int as "group", row_number() over (order by ${ordering})::int as place,
        ${ref(alias, 'id')} as id,
        coalesce(${label ? text(label) : sql`${ref(alias, 'id')}::text`}, '') as label,
        left(${text(detail)}, ${DETAIL_LENGTH}) as detail
      from ${rows}
      order by ${ordering} limit ${ROWS_PER_GROUP})`;
  });
  return sql<Hit>`${sql.join(selects, sql` union all `)}`;
}

/**
 * At most two statements: the newest rows of every group first; the groups that found fewer than a
 * full group there are asked again over all their rows (rare words: the trigram indexes find them).
 */
export async function globalSearch(
  db: Db,
  registry: Registry,
  auth: AuthContext,
  text: string,
): Promise<SearchGroup[]> {
  const plans = searchPlan(registry, auth).map((plan, group) => ({ plan, group }));
  if (plans.length === 0) return [];
  const pattern = containsPattern(text);
  const found = (await searchStatement(registry, auth, plans, pattern, 'recent').execute(db)).rows;
  const count = (group: number) => found.filter((row) => row.group === group).length;
  const again = plans.filter(({ group }) => count(group) < ROWS_PER_GROUP);
  const rows = found.filter((row) => !again.some((p) => p.group === row.group));
  if (again.length > 0)
    rows.push(...(await searchStatement(registry, auth, again, pattern, 'all').execute(db)).rows);
  const groups: SearchGroup[] = plans.map(({ plan }) => ({ resource: plan.resource.name, records: [] }));
  rows.sort((a, b) => a.group - b.group || a.place - b.place);
  for (const row of rows) {
    groups[row.group]!.records.push({ id: Number(row.id), label: row.label, detail: row.detail });
  }
  return groups.filter((g) => g.records.length > 0);
}
