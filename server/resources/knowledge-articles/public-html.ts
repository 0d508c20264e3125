/**
 * The HTML of the knowledge base's public pages (issue 39, item 4): written here, with every text
 * escaped (escapeHtml) except an article's body, which was sanitised when it was stored (format html),
 * and whose image addresses are rewritten to the public file route. Words in nl, en and de.
 */
import { escapeHtml } from '../../html/escape.ts';
import type { Language } from '../../../common/schema/types.ts';
import { publicArticlePath as articlePath } from '../../../common/knowledge.ts';

export const PUBLIC_TEXTS = {
  nl: {
    title: 'Kennisbank',
    search: 'Zoeken in de kennisbank',
    searchButton: 'Zoeken',
    none: 'Geen artikelen gevonden.',
    back: 'Alle artikelen',
    updated: 'Bijgewerkt op',
  },
  en: {
    title: 'Knowledge base',
    search: 'Search the knowledge base',
    searchButton: 'Search',
    none: 'No articles found.',
    back: 'All articles',
    updated: 'Updated on',
  },
  de: {
    title: 'Wissensdatenbank',
    search: 'Wissensdatenbank durchsuchen',
    searchButton: 'Suchen',
    none: 'Keine Artikel gefunden.',
    back: 'Alle Artikel',
    updated: 'Aktualisiert am',
  },
} satisfies Record<Language, Record<string, string>>;

/** Our image addresses in a public article's body, pointed at the public file route. */
export function publicImages(html: string): string {
  return html.replace(/src="\/api\/attachments\/(\d+)\/file"/g, 'src="/kb/files/$1"');
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;color:#1f2933;background:#f7f8fa;line-height:1.55}
main{max-width:760px;margin:0 auto;padding:24px 16px}h1{font-size:1.8rem;margin:0 0 16px}
a{color:#0b57d0}form{display:flex;gap:8px;margin:0 0 24px}input{flex:1;min-width:0;font:inherit;padding:8px;
border:1px solid #8a949e;border-radius:4px}button{font:inherit;padding:8px 16px;border:0;border-radius:4px;
background:#0b57d0;color:#fff}ul{list-style:none;padding:0}li{background:#fff;border:1px solid #dde1e6;
border-radius:6px;padding:12px 16px;margin:0 0 8px}li p{margin:4px 0 0;color:#52606d}article{background:#fff;
border:1px solid #dde1e6;border-radius:6px;padding:16px 24px}article img{max-width:100%;height:auto}
.meta{color:#52606d;font-size:.9rem}`;

function page(language: Language, title: string, content: string): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body><main>${content}</main></body></html>`;
}

export interface ListedArticle {
  id: number;
  title: string;
  excerpt: string;
  /** The article's own language: its line says so (lang), the page's words may be another's. */
  language: string;
}

export function indexPage(language: Language, query: string, articles: ListedArticle[]): string {
  const t = PUBLIC_TEXTS[language];
  const items = articles
    .map(
      (a) =>
        `<li lang="${escapeHtml(a.language)}"><a href="${escapeHtml(articlePath(a.id, a.title))}">${escapeHtml(a.title)}</a><p>${escapeHtml(a.excerpt)}</p></li>`,
    )
    .join('');
  return page(
    language,
    t.title,
    `<h1>${t.title}</h1><form method="get" action="/kb" role="search"><label for="q" style="position:absolute;left:-9999px">${t.search}</label>
<input id="q" name="q" type="search" maxlength="200" value="${escapeHtml(query)}" placeholder="${t.search}">
<button type="submit">${t.searchButton}</button></form>${items ? `<ul>${items}</ul>` : `<p>${t.none}</p>`}`,
  );
}

export function articlePage(
  chrome: Language,
  article: { title: string; body: string; language: Language; updated_at: Date },
): string {
  const t = PUBLIC_TEXTS[chrome];
  const date = article.updated_at.toISOString().slice(0, 10);
  return page(
    chrome,
    article.title,
    `<p><a href="/kb">${t.back}</a></p><article lang="${article.language}"><h1>${escapeHtml(article.title)}</h1>
<p class="meta">${t.updated} <time datetime="${date}">${date}</time></p>${publicImages(article.body)}</article>`,
  );
}

export function sitemap(origin: string, articles: { id: number; title: string; updated_at: Date }[]): string {
  const urls = [
    `<url><loc>${escapeHtml(`${origin}/kb`)}</loc></url>`,
    ...articles.map(
      (a) =>
        `<url><loc>${escapeHtml(origin + articlePath(a.id, a.title))}</loc><lastmod>${a.updated_at.toISOString()}</lastmod></url>`,
    ),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>\n`;
}
