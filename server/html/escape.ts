/**
 * Text put into HTML we write ourselves (e-mails, system messages): the five characters that could
 * open a tag, end an attribute value or start an entity become entities. One function for every such
 * place, so a fix reaches all of them (issue 16 item 6). Message bodies users write are sanitized
 * instead (sanitize.ts): they are HTML already.
 */
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
