/**
 * Message HTML is cleaned on the server before it is stored, with an explicit allow list (issue 5,
 * item 3): whatever the editor (or anyone calling the API) sends, what is stored and later rendered
 * in both apps and in e-mails has no script, no event handler, no frame or plugin, no form, no style
 * sheet and no link or image that could run or load something foreign.
 *
 * Allowed: text formatting, headings, lists, quotes, tables, code and pre, horizontal rules, links
 * (http, https, mailto or a path on this site; always rel="noopener noreferrer" and a new tab),
 * images only from our own attachment addresses (`/api/attachments/{id}/file`; data: and other hosts
 * are dropped), mentions as `<span class="mention" data-type="mention" data-id data-label>`, and the
 * one style property the editor uses for alignment.
 */
import sanitizeHtml from 'sanitize-html';
import { fileUrl } from '../files/signed-urls.ts';
import { ValidationError } from '../http/errors.ts';
import { serverText } from '../../common/server-texts.ts';
import { MAX_HTML_DEPTH, nestsDeeperThan } from './nesting.ts';

/** Our attachment address, with or without a download token (which is never stored). */
const OWN_IMAGE = /^\/api\/attachments\/([1-9]\d{0,9})\/file(?:\?token=[A-Za-z0-9._-]*)?$/;

/** Tags whose text content goes with them when they are dropped (not only the tag). */
const DROP_WITH_CONTENT = [
  'script',
  'style',
  'textarea',
  'option',
  'xmp',
  'noscript',
  'noembed',
  'noframes',
  'iframe',
  'object',
  'embed',
  'template',
  'title',
  'select',
  'plaintext',
  'svg',
  'math',
  'head',
];

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'div',
    'span',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'strike',
    'del',
    'ins',
    'sub',
    'sup',
    'mark',
    'small',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'colgroup',
    'col',
    'code',
    'pre',
    'hr',
    // A mail's quoted previous reply, folded (issue 19): <details><summary>…</summary>…</details>.
    'details',
    'summary',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    span: ['class', 'data-type', 'data-id', 'data-label'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    col: ['span'],
    colgroup: ['span'],
    ol: ['start', 'type'],
    code: ['class'],
    '*': ['style'],
  },
  allowedClasses: { span: ['mention'], code: ['language-*'] },
  allowedStyles: { '*': { 'text-align': [/^(?:left|right|center|justify)$/] } },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROP_WITH_CONTENT,
  // Deeply nested markup is a denial-of-service and a mutation-XSS tool; a message never needs it.
  nestingLimit: 50,
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: { ...attribs, rel: 'noopener noreferrer', target: '_blank' },
    }),
    img: (tagName, attribs) => {
      const match = OWN_IMAGE.exec((attribs.src ?? '').trim());
      // An image from elsewhere becomes a tag that is not allowed, so it is dropped as it is read (an
      // exclusiveFilter would cut it out of the output so far: a copy per image, quadratic in their number).
      if (!match) return { tagName: 'foreign-img', attribs: {} };
      const { src: _src, ...rest } = attribs;
      // The token a reader's copy carries is theirs and short-lived: the stored address has none.
      return { tagName, attribs: { ...rest, src: fileUrl(Number(match[1])) } };
    },
    span: (tagName, attribs) => {
      // Only mentions keep their data: an operator id, a type and a label.
      if (attribs['data-type'] !== 'mention' || !/^\d{1,10}$/.test(attribs['data-id'] ?? '')) {
        const { 'data-type': _t, 'data-id': _i, 'data-label': _l, ...rest } = attribs;
        return { tagName, attribs: rest };
      }
      return { tagName, attribs };
    },
  },
};

/**
 * The message HTML as it may be stored and shown, or a 422 on `field` when it nests deeper than
 * MAX_HTML_DEPTH: the sanitiser's work grows with the square of the depth (nesting.ts), so such HTML is
 * refused before it runs, on every path that cleans HTML.
 */
export function sanitizeMessage(html: string, field = 'message'): string {
  if (nestsDeeperThan(html, MAX_HTML_DEPTH))
    throw new ValidationError({ [field]: [serverText('html_too_deep', { field, max: MAX_HTML_DEPTH })] });
  return sanitizeHtml(html, OPTIONS).trim();
}

/** The attachment ids of our own images in (sanitised) message HTML. */
export function embeddedImageIds(html: string): number[] {
  const ids = new Set<number>();
  for (const m of html.matchAll(/<img\b[^>]*?\bsrc="\/api\/attachments\/(\d+)\/file"/g))
    ids.add(Number(m[1]));
  return [...ids];
}

/** The message as plain text (the text part of an e-mail): blocks on lines of their own. */
export function messageText(html: string): string {
  const spaced = html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|li|tr|blockquote|pre)>/gi, '\n')
    .replace(/<li\b[^>]*>/gi, '- ');
  const text = sanitizeHtml(spaced, { allowedTags: [], allowedAttributes: {} });
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
