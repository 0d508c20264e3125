import { sql, type Kysely } from 'kysely';

/*
 * Knowledge base (issue 39, item 4), frozen in time like every migration.
 *
 * knowledge_categories: a tenant's article categories (a name, an order).
 * knowledge_articles: rich text (sanitised as messages are), one language (nl, en, de) and a visibility:
 *   `public` (anyone, the no-login pages /kb), `portal` (every client), `companies` (the clients of the
 *   companies in knowledge_article_company) or `internal` (operators only). `search_vector` is generated
 *   from title (weight A), tags (B) and the body without its tags (C) with the text search configuration
 *   of the article's language (dutch, english, german: PostgreSQL and PGlite both carry them), so a row is
 *   always indexed as it is written. `deflections` counts "this solved it" presses (the figure the back
 *   office shows); knowledge_deflections keeps one counter row per article and client.
 * attachments.knowledge_article_id: an image shown in an article belongs to it, and is seen by whoever
 *   may see the article.
 */

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table knowledge_categories (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      name text not null,
      "order" integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index knowledge_categories_order_index on knowledge_categories (tenant_id, "order", id)`.execute(
    db,
  );

  await sql`
    create table knowledge_articles (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      title text not null,
      body text not null,
      category_id integer references knowledge_categories(id) on delete set null,
      tags text not null default '',
      language text not null default 'nl' check (language in ('nl', 'en', 'de')),
      visibility text not null default 'internal' check (visibility in ('public', 'portal', 'companies', 'internal')),
      deflections integer not null default 0,
      author_id integer references users(id) on delete set null,
      search_vector tsvector generated always as (
        setweight(to_tsvector(case language when 'nl' then 'dutch'::regconfig when 'de' then 'german'::regconfig
          else 'english'::regconfig end, title), 'A') ||
        setweight(to_tsvector(case language when 'nl' then 'dutch'::regconfig when 'de' then 'german'::regconfig
          else 'english'::regconfig end, tags), 'B') ||
        setweight(to_tsvector(case language when 'nl' then 'dutch'::regconfig when 'de' then 'german'::regconfig
          else 'english'::regconfig end, regexp_replace(body, '<[^>]*>', ' ', 'g')), 'C')
      ) stored,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index knowledge_articles_updated_index on knowledge_articles (tenant_id, updated_at, id)`.execute(
    db,
  );
  await sql`create index knowledge_articles_category_index on knowledge_articles (tenant_id, category_id)`.execute(
    db,
  );
  await sql`create index knowledge_articles_author_index on knowledge_articles (tenant_id, author_id)`.execute(
    db,
  );
  // The public pages and the sitemap read the public articles of one tenant.
  await sql`create index knowledge_articles_visibility_index on knowledge_articles (tenant_id, visibility, id)`.execute(
    db,
  );
  await sql`create index knowledge_articles_search_index on knowledge_articles using gin (search_vector)`.execute(
    db,
  );
  // The back office's app-bar search looks in titles (x-global-search needs a trigram index). pg_trgm is
  // in the schema 0001 installed it in (public, or a test's own schema), named as 0022 names it.
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'pg_trgm'`.execute(db);
  const trgmSchema = rows[0]!.schema.replace(/"/g, '""');
  await sql
    .raw(
      `create index knowledge_articles_title_trgm_index on knowledge_articles using gin (title "${trgmSchema}".gin_trgm_ops)`,
    )
    .execute(db);

  await sql`
    create table knowledge_article_company (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      knowledge_article_id integer not null references knowledge_articles(id) on delete cascade,
      company_id integer not null references companies(id) on delete cascade,
      created_at timestamptz not null default now(),
      unique (knowledge_article_id, company_id)
    )`.execute(db);
  await sql`create index knowledge_article_company_article_index on knowledge_article_company (tenant_id, knowledge_article_id)`.execute(
    db,
  );
  await sql`create index knowledge_article_company_company_index on knowledge_article_company (tenant_id, company_id)`.execute(
    db,
  );

  await sql`
    create table knowledge_deflections (
      id serial primary key,
      tenant_id integer not null references tenants(id) on delete cascade,
      knowledge_article_id integer not null references knowledge_articles(id) on delete cascade,
      user_id integer not null references users(id) on delete cascade,
      count integer not null default 1,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (knowledge_article_id, user_id)
    )`.execute(db);

  await sql`alter table attachments add column knowledge_article_id integer
    references knowledge_articles(id) on delete set null`.execute(db);
  await sql`create index attachments_knowledge_article_index on attachments (tenant_id, knowledge_article_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table attachments drop column if exists knowledge_article_id`.execute(db);
  await sql`drop table if exists knowledge_deflections`.execute(db);
  await sql`drop table if exists knowledge_article_company`.execute(db);
  await sql`drop table if exists knowledge_articles`.execute(db);
  await sql`drop table if exists knowledge_categories`.execute(db);
}
