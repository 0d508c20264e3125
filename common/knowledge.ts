/**
 * The address of a public knowledge article (issue 39, item 4), the same in the server's public pages
 * and sitemap and in the link the back office's message editor inserts: /kb/<id>-<the title's words>.
 * Only the id is read back; the words are for people and search engines.
 */
export function publicArticlePath(id: number, title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80)
    .replace(/-$/, '');
  return slug ? `/kb/${id}-${slug}` : `/kb/${id}`;
}
