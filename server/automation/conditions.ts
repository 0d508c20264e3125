/**
 * A rule's conditions are builder items of the tickets' list (`builder`), read by the list's own parser
 * and compiled by the list's own compiler (server/query/parse.ts, sql.ts): a rule and a list filter
 * with the same builder agree on which tickets match, by construction (tests/unit's property test
 * checks it). The rules of one event are evaluated on a ticket in one statement, a column per rule.
 */
import { sql } from 'kysely';
import type { AuthContext } from '../auth/context.ts';
import type { Db, DbTransaction } from '../db/database.ts';
import { HttpError } from '../http/errors.ts';
import { and, ref, tableAs, type Fragment } from '../query/fragments.ts';
import { parseBuilderConditions } from '../query/parse.ts';
import { baseConditions, compileCondition, sqlContext } from '../query/sql.ts';
import type { Condition } from '../query/tree.ts';
import type { Registry } from '../schema/registry.ts';
import { serverText } from '../../common/server-texts.ts';

/** The conditions as the list reads them; a 422 naming the item (`conditions.2.where`) otherwise. */
export function parseRuleConditions(
  registry: Registry,
  auth: AuthContext,
  raw: unknown,
  key = 'conditions',
): Condition[] {
  // `me` would be resolved to whoever saves or runs the rule: a rule acts for no one, so it is refused.
  const ctx = { ...sqlContext(registry, auth), meRefused: serverText('automation_me_in_rule') };
  return parseBuilderConditions(ctx, registry.require('tickets'), raw, key);
}

export interface RuleConditions {
  id: number;
  conditions: unknown;
}

/**
 * Which of `rules` hold for the ticket now: their ids. A rule whose conditions no longer parse (a field
 * its builder names has left the schema since it was saved) is in `broken` instead.
 */
export async function matchingRules(
  trx: Db | DbTransaction,
  registry: Registry,
  auth: AuthContext,
  ticketId: number,
  rules: readonly RuleConditions[],
): Promise<{ matching: Set<number>; broken: Set<number> }> {
  const matching = new Set<number>();
  const broken = new Set<number>();
  if (rules.length === 0) return { matching, broken };
  const tickets = registry.require('tickets');
  const ctx = sqlContext(registry, auth);
  const alias = ctx.nextAlias();
  const columns: Fragment[] = [];
  for (const rule of rules) {
    let parsed: Condition[];
    try {
      parsed = parseBuilderConditions(ctx, tickets, rule.conditions, 'conditions');
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      broken.add(rule.id);
      continue;
    }
    const holds = parsed.length
      ? and(parsed.map((c) => compileCondition(ctx, tickets, alias, c)))
      : sql`true`;
    columns.push(sql`(${holds}) as ${sql.id(`r${rule.id}`)}`);
  }
  if (columns.length === 0) return { matching, broken };
  const where = and([sql`${ref(alias, 'id')} = ${ticketId}`, ...baseConditions(ctx, tickets, alias)]);
  const { rows } = await sql<Record<string, boolean>>`select ${sql.join(columns)}
    from ${tableAs(tickets, alias)} where ${where}`.execute(trx);
  const row = rows[0];
  if (row) for (const rule of rules) if (row[`r${rule.id}`] === true) matching.add(rule.id);
  return { matching, broken };
}
