/**
 * Full-text search of the knowledge base (issue 39, item 4). Each article's `search_vector` was made with
 * its own language's text search configuration (migration 0054: dutch, english, german), so a search
 * asks each language's rows with the question parsed by that same configuration: the question's words
 * are stemmed and stripped of stop words as the articles' were. Words are joined with OR (a ticket's
 * description is a sentence, not a list of words that must all occur) and ts_rank puts the articles that
 * match most, and in their title, first. The rows are the caller's as every list's are (baseConditions:
 * tenant, and for a client the portal's conditions and scope), or only the public ones for the public pages.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AuthContext } from '../../auth/context.ts';
import { and, ref, tableAs } from '../../query/fragments.ts';
import { baseConditions, sqlContext } from '../../query/sql.ts';
import type { Registry } from '../../schema/registry.ts';
import { messageText } from '../../html/sanitize.ts';

export const KB_LANGUAGES = { nl: 'dutch', en: 'english', de: 'german' } as const;
export type KbLanguage = keyof typeof KB_LANGUAGES;

/** At most this many words of a question are searched (a pasted page would make a huge query). */
const MAX_WORDS = 32;

/**
 * The question as a tsquery text: its words (letters and digits, so nothing of the tsquery syntax gets
 * through), joined with OR. A plain character class with `+`: linear on any input.
 */
export function questionTerms(text: string): string | null {
  const words = (text.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length <= 60).slice(0, MAX_WORDS);
  return words.length ? [...new Set(words.map((w) => w.toLowerCase()))].join(' | ') : null;
}

export interface ArticleHit {
  id: number;
  title: string;
  language: string;
  category_id: number | null;
  tags: string;
  updated_at: string;
  excerpt: string;
  rank: number;
  /** Whether it is on the public pages: a link to it needs no sign-in. */
  public: boolean;
}

/** Who the rows are read for: a caller (their scope), or anyone (public articles only). */
export type Reader = { auth: AuthContext } | { publicTenant: number };

export async function searchArticles(
  db: Db,
  registry: Registry,
  reader: Reader,
  text: string,
  limit: number,
): Promise<ArticleHit[]> {
  const terms = questionTerms(text);
  if (!terms) return [];
  const articles = registry.require('knowledge-articles');
  let alias = 'a';
  let scope: RawBuilder<unknown>[];
  if ('auth' in reader) {
    const ctx = sqlContext(registry, reader.auth);
    alias = ctx.nextAlias();
    scope = baseConditions(ctx, articles, alias);
  } else {
    scope = [
      sql`${ref(alias, 'tenant_id')} = ${reader.publicTenant}`,
      sql`${ref(alias, 'visibility')} = 'public'`,
    ];
  }
  const vector = ref(alias, 'search_vector');
  const language = ref(alias, 'language');
  const query = (config: string) => sql`to_tsquery(${sql.lit(config)}::regconfig, ${terms})`;
  // One @@ per language, so each can use the GIN index; the rank asks the row's own language's query.
  const matches = Object.entries(KB_LANGUAGES).map(
    ([code, config]) => sql`(${language} = ${code} and ${vector} @@ ${query(config)})`,
  );
  const rank = sql`ts_rank(${vector}, case ${language} ${sql.join(
    Object.entries(KB_LANGUAGES).map(([code, config]) => sql`when ${code} then ${query(config)}`),
    sql` `,
  )} end)`;
  const { rows } = await sql<Omit<ArticleHit, 'excerpt'> & { body: string }>`
    select ${ref(alias, 'id')}, ${ref(alias, 'title')}, ${language} as language, ${ref(alias, 'category_id')},
      ${ref(alias, 'tags')}, ${ref(alias, 'updated_at')}, ${ref(alias, 'body')}, ${rank} as rank,
      ${ref(alias, 'visibility')} = 'public' as "public"
    from ${tableAs(articles, alias)}
    where ${and([...scope, sql`(${sql.join(matches, sql` or `)})`])}
    order by rank desc, ${ref(alias, 'id')} desc
    limit ${limit}`.execute(db);
  return rows.map(({ body, ...row }) => ({
    ...row,
    id: Number(row.id),
    category_id: row.category_id === null ? null : Number(row.category_id),
    updated_at: new Date(row.updated_at).toISOString(),
    rank: Number(row.rank),
    excerpt: excerpt(body),
  }));
}

/** The first words of the article's text, for a result line. */
export function excerpt(html: string, max = 200): string {
  const text = messageText(html).replace(/\s+/g, ' ').trim();
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}
