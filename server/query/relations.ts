/**
 * Loading `with` relations. To-one relations (belongsTo, morphTo) arrive inside the owner's own
 * statement as JSON columns (select.ts toOneColumns) and are revived here; to-many ones take one query
 * per relation, never one per row. Related rows pass through the same baseConditions as any list, so a
 * client never receives through `with` what it could not list itself.
 */
import { sql } from 'kysely';
import type { AuthContext } from '../auth/context.ts';
import type { Db } from '../db/database.ts';
import type { Registry } from '../schema/registry.ts';
import type { Relation, Resource } from '../../common/schema/types.ts';
import { readableFields } from './visibility.ts';
import { baseConditions, presentColumnsOf, relatedTargets, relationJoin, type SqlContext } from './sql.ts';
import { and, fieldValue, ref, unique } from './fragments.ts';
import { keyFieldsFor, selectFields, toOneColumns } from './select.ts';
import type { WithTree } from './tree.ts';
import { chosenFields, relationChoice, type ColumnChoice } from './columns.ts';
import { WITH_LIMITS } from './limits.ts';

export type Row = Record<string, any>;

/** What a presenter gets: the rows' reader and a handle to read more (the request's transaction, if any). */
export interface PresentContext {
  db: Db;
  auth: AuthContext;
  resource: Resource;
  registry: Registry;
}

/**
 * Adds what the schema cannot say (computed fields) to rows of `ctx.resource` about to be answered.
 * The caller hands it in (server/resources/hooks.ts `presentRows`): the query builder knows no
 * per-resource code, so it imports none (tests/unit/import-cycles.test.ts).
 */
export type RowPresenter = (rows: Row[], ctx: PresentContext) => Promise<void> | void;

const OWNER = '__owner';
const RANK = '__rank';

export { keyFieldsFor };

function ordered(ctx: SqlContext, target: Resource, alias: string) {
  const [name, dir] = target.defaultSort;
  const value = fieldValue(alias, target.fields[name]!, ctx.auth.language);
  return sql`${value} ${sql.raw(dir)}, ${ref(alias, 'id')} ${sql.raw(dir)}`;
}

/**
 * The rows of a to-many relation for every owner in `ids`, at most WITH_LIMITS.perRecord per owner, in
 * the related resource's default order: a LATERAL subquery per owner with that LIMIT, so the database
 * stops at the cap instead of reading all of a large company's tickets (issue 31, item 5). The owner's
 * id comes along as OWNER; RANK keeps each owner's rows in their order.
 */
async function fetchRelated(
  db: Db,
  ctx: SqlContext,
  present: RowPresenter,
  owner: Resource,
  relation: Relation,
  target: Resource,
  ids: number[],
  subtree: WithTree,
  choice: ColumnChoice | undefined,
): Promise<Row[]> {
  const owners = ctx.nextAlias();
  const alias = ctx.nextAlias();
  const capped = ctx.nextAlias();
  const { from, on } = relationJoin(ctx, owner, owners, relation, { resource: target }, alias);
  const fields = unique([...chosenFields(target, ctx.auth, choice), ...keyFieldsFor(target, subtree)]);
  const order = ordered(ctx, target, alias);
  const columns = [
    selectFields(ctx, alias, fields),
    ...toOneColumns(ctx, target, alias, subtree, choice),
    ...presentColumnsOf(ctx, target, alias),
    sql`row_number() over (order by ${order}) as ${sql.id(RANK)}`,
  ];
  const statement = sql`select ${sql.id(capped)}.*, ${ref(owners, 'id')} as ${sql.id(OWNER)}
    from unnest(array[${sql.join(ids)}]::bigint[]) as ${sql.id(owners)}(id)
    cross join lateral (select ${sql.join(columns)} from ${from}
      where ${and([on, ...baseConditions(ctx, target, alias)])}
      order by ${order} limit ${WITH_LIMITS.perRecord}) as ${sql.id(capped)}
    order by ${ref(owners, 'id')}, ${ref(capped, RANK)}`;
  const { rows } = await statement.execute(db);
  const list = rows as Row[];
  for (const row of list) delete row[RANK];
  await loadRelations(db, ctx, target, list, subtree, present, choice);
  return list;
}

async function loadOne(
  db: Db,
  ctx: SqlContext,
  present: RowPresenter,
  resource: Resource,
  rows: Row[],
  relation: Relation,
  subtree: WithTree,
  choice: ColumnChoice | undefined,
) {
  const ids = unique(rows.map((r) => r.id as number));
  switch (relation.kind) {
    case 'belongsTo':
    case 'morphTo': {
      // In the rows already (toOneColumns): JSON objects, or null where none or none the caller may see.
      const byTarget = new Map<Resource, Row[]>();
      for (const { resource: target, morphType } of relatedTargets(ctx.registry, relation)) {
        const owners =
          relation.kind === 'morphTo' ? rows.filter((r) => r[`${relation.morph}_type`] === morphType) : rows;
        const related = owners.map((r) => r[relation.name] as Row | null).filter((r) => r !== null);
        byTarget.set(target, [...(byTarget.get(target) ?? []), ...related]);
      }
      for (const row of rows) row[relation.name] ??= null;
      await Promise.all(
        [...byTarget].map(([target, related]) => {
          reviveJson(target, related);
          return loadRelations(db, ctx, target, related, subtree, present, choice);
        }),
      );
      return;
    }
    default: {
      const target = ctx.registry.require(relation.resource);
      for (const row of rows) row[relation.name] = [];
      if (!ids.length) return;
      const related = await fetchRelated(db, ctx, present, resource, relation, target, ids, subtree, choice);
      const byOwner = new Map<number, Row[]>();
      for (const r of related) {
        // unnest gives the owner ids as bigint, which the pg driver answers as text.
        const owner = Number(r[OWNER]);
        delete r[OWNER];
        const list = byOwner.get(owner);
        if (list) list.push(r);
        else byOwner.set(owner, [r]);
      }
      for (const row of rows) row[relation.name] = byOwner.get(row.id) ?? [];
    }
  }
}

/**
 * JSON has no timestamp: a date-time field of a row that came as JSON becomes the Date the driver makes
 * of a column, so a related row reads the same whichever way it was loaded. (Numbers, dates as
 * 'YYYY-MM-DD', JSON and arrays come out of JSON as the driver's parsers give them: db/database.ts.)
 */
function reviveJson(resource: Resource, rows: Row[]): void {
  const stamps = Object.values(resource.fields).filter((f) => f.format === 'date-time');
  if (stamps.length === 0) return;
  for (const row of rows) {
    for (const f of stamps) if (typeof row[f.name] === 'string') row[f.name] = new Date(row[f.name]);
  }
}

/**
 * Fills each row's relations named in the tree, adds the resource's computed fields (`present`, which
 * dispatches to the resource's `present` hook), and strips key fields the caller may not read. Every row a list, a show or a `with` answers
 * passes through here, so computed fields are the same whichever way a row is reached.
 */
export async function loadRelations(
  db: Db,
  ctx: SqlContext,
  resource: Resource,
  rows: Row[],
  tree: WithTree,
  present: RowPresenter,
  /** The columns a `select` item chose on this level (columns.ts), if any. */
  choice?: ColumnChoice,
): Promise<void> {
  if (rows.length === 0) return;
  // Each relation fills its own key of the rows: they load side by side.
  await Promise.all(
    Object.keys(tree).map((name) =>
      loadOne(
        db,
        ctx,
        present,
        resource,
        rows,
        resource.relations[name]!,
        tree[name]!,
        relationChoice(choice, name),
      ),
    ),
  );
  await present(rows, {
    db,
    auth: ctx.auth,
    resource,
    registry: ctx.registry,
  });
  const readable = new Set(readableFields(resource, ctx.auth).map((f) => f.name));
  const hidden = keyFieldsFor(resource, tree).filter((f) => !readable.has(f.name));
  for (const row of rows) for (const f of hidden) delete row[f.name];
}
