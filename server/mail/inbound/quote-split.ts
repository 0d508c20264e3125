/**
 * Where the quoted previous mail starts in an incoming mail's body (issue 19), found in linear time
 * (issue 31, item 1). The regular expressions that did this before backtracked: `<div[^>]*class="…`
 * over 160 kB of `<div class="x` without a `>` held the process for seconds. Every function here passes
 * over its input once, forward, with indexOf and character tests, and uses no regular expression on the
 * body, so no input can make it go back over what it read. The reader scans at most QUOTE_SCAN_CHARS
 * of a body (parse.ts): a quote that starts later is not looked for, and the body is not split.
 */

/** How much of a body's HTML or text is searched for the quote. */
export const QUOTE_SCAN_CHARS = 256 * 1024;

const LT = 0x3c; // <
const GT = 0x3e; // >
const SLASH = 0x2f; // /
const EQUALS = 0x3d; // =
const BANG = 0x21; // !
const QUESTION = 0x3f; // ?
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const DASH = 0x2d;

/** The characters JavaScript's `\s` matches. */
export function isSpace(code: number): boolean {
  return (
    (code >= 0x09 && code <= 0x0d) ||
    code === 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

const isLetter = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);

/**
 * Whether the HTML shows anything but tags, white space and `&nbsp;`: what
 * `html.replace(/<[^>]*>|&nbsp;|\s/g, '') !== ''` answered, which went over the rest of the input again
 * from every `<` that no `>` followed. Here a `<` without a `>` after it is text, found at once.
 */
export function hasVisibleText(html: string): boolean {
  let i = 0;
  while (i < html.length) {
    const code = html.charCodeAt(i);
    if (code === LT) {
      const end = html.indexOf('>', i + 1);
      if (end === -1) return true;
      i = end + 1;
    } else if (isSpace(code)) i += 1;
    else if (html.startsWith('&nbsp;', i)) i += 6;
    else return true;
  }
  return false;
}

type Attributes = Map<string, string>;

/**
 * The position of the first start tag for which `wanted` says yes, reading the HTML as a browser's
 * tokenizer would (names, attributes with quoted or bare values, comments and end tags skipped). The
 * position only moves forward; a tag that does not end before the input does ends the search.
 */
function firstTag(
  html: string,
  wanted: (name: string, attributes: Attributes) => boolean,
): number | undefined {
  const n = html.length;
  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt === -1 || lt + 1 >= n) return undefined;
    const next = html.charCodeAt(lt + 1);
    if (html.startsWith('!--', lt + 1)) {
      const end = html.indexOf('-->', lt + 4);
      if (end === -1) return undefined;
      i = end + 3;
      continue;
    }
    if (next === SLASH || next === BANG || next === QUESTION) {
      const end = html.indexOf('>', lt + 2);
      if (end === -1) return undefined;
      i = end + 1;
      continue;
    }
    if (!isLetter(next)) {
      i = lt + 1;
      continue;
    }
    let j = lt + 1;
    while (j < n && !isSpace(html.charCodeAt(j)) && html.charCodeAt(j) !== SLASH && html.charCodeAt(j) !== GT)
      j += 1;
    const name = html.slice(lt + 1, j).toLowerCase();
    const attributes: Attributes = new Map();
    let closed = false;
    while (j < n) {
      const code = html.charCodeAt(j);
      if (code === GT) {
        closed = true;
        j += 1;
        break;
      }
      if (isSpace(code) || code === SLASH) {
        j += 1;
        continue;
      }
      // An attribute name: up to white space, '/', '>' or '='; a leading '=' belongs to the name.
      const start = j;
      j += 1;
      while (j < n) {
        const c = html.charCodeAt(j);
        if (isSpace(c) || c === SLASH || c === GT || c === EQUALS) break;
        j += 1;
      }
      const attribute = html.slice(start, j).toLowerCase();
      while (j < n && isSpace(html.charCodeAt(j))) j += 1;
      let value = '';
      if (j < n && html.charCodeAt(j) === EQUALS) {
        j += 1;
        while (j < n && isSpace(html.charCodeAt(j))) j += 1;
        const quote = html.charCodeAt(j);
        if (quote === DOUBLE_QUOTE || quote === SINGLE_QUOTE) {
          const end = html.indexOf(quote === DOUBLE_QUOTE ? '"' : "'", j + 1);
          if (end === -1) return undefined;
          value = html.slice(j + 1, end);
          j = end + 1;
        } else {
          const begin = j;
          while (j < n && !isSpace(html.charCodeAt(j)) && html.charCodeAt(j) !== GT) j += 1;
          value = html.slice(begin, j);
        }
      }
      if (!attributes.has(attribute)) attributes.set(attribute, value);
    }
    if (!closed) return undefined;
    if (wanted(name, attributes)) return lt;
    i = j;
  }
  return undefined;
}

const classHas = (attributes: Attributes, word: string) =>
  (attributes.get('class') ?? '').toLowerCase().includes(word);
const attributeIs = (attributes: Attributes, name: string, values: string[]) =>
  values.includes((attributes.get(name) ?? '').toLowerCase());

/**
 * Where the quoted previous mail starts in HTML: Gmail's `div.gmail_quote`, Apple Mail's
 * `blockquote type="cite"`, Outlook's `div#divRplyFwdMsg`, `div#appendonsend` and `hr#stopSpelling`,
 * Thunderbird's `div.moz-cite-prefix`.
 */
export function findHtmlQuote(html: string): number | undefined {
  return firstTag(html, (name, attributes) => {
    if (name === 'div')
      return (
        classHas(attributes, 'gmail_quote') ||
        classHas(attributes, 'moz-cite-prefix') ||
        attributeIs(attributes, 'id', ['divrplyfwdmsg', 'appendonsend'])
      );
    if (name === 'blockquote') return attributeIs(attributes, 'type', ['cite']);
    if (name === 'hr') return attributeIs(attributes, 'id', ['stopspelling']);
    return false;
  });
}

/** No line break of any kind inside (what `.` refuses to match). */
const oneLine = (s: string) => !s.includes('\r') && !s.includes('\u2028') && !s.includes('\u2029');

/**
 * `<opening> .{3,200}<verb>.{0,100}:` and nothing but white space after: "Op … schreef …:" and
 * "Am … schrieb …:". Such a line is at most 320 characters, so the search for the verb is bounded.
 */
function writesLine(line: string, opening: string, verbs: string[]): boolean {
  if (line.length > 320 || !line.startsWith(opening) || !line.endsWith(':') || !oneLine(line)) return false;
  for (const verb of verbs) {
    for (let at = line.indexOf(verb, opening.length + 3); at !== -1; at = line.indexOf(verb, at + 1)) {
      if (at - opening.length > 200) break;
      if (line.length - 1 - (at + verb.length) <= 100) return true;
    }
  }
  return false;
}

const SEPARATORS = ['original message', 'oorspronkelijk bericht', 'ursprüngliche nachricht'];
const HEADER_FROM = ['From: ', 'Van: ', 'Von: '];
const HEADER_SENT = ['Sent: ', 'Verzonden: ', 'Gesendet: ', 'Date: ', 'Datum: '];

/**
 * `--- Original Message ---` in English, Dutch or German from `start`: two or more dashes on either side,
 * white space between, line breaks included (as `\s` allowed), nothing but white space after on the line.
 * Only a line that starts with two dashes is looked at, and white space runs hold no such line, so each
 * character is read for at most two starts.
 */
function separatorAt(text: string, start: number): boolean {
  const n = text.length;
  const skipSpace = (from: number) => {
    while (from < n && isSpace(text.charCodeAt(from))) from += 1;
    return from;
  };
  const skipDashes = (from: number) => {
    while (from < n && text.charCodeAt(from) === DASH) from += 1;
    return from;
  };
  let i = skipDashes(start);
  if (i - start < 2) return false;
  i = skipSpace(i);
  const phrase = SEPARATORS.find((p) => text.slice(i, i + p.length).toLowerCase() === p);
  if (!phrase) return false;
  i = skipSpace(i + phrase.length);
  const dashes = skipDashes(i);
  if (dashes - i < 2) return false;
  const nl = text.indexOf('\n', dashes);
  for (let k = dashes; k < (nl === -1 ? n : nl); k += 1) if (!isSpace(text.charCodeAt(k))) return false;
  return true;
}

/**
 * Where the quoted previous mail starts in plain text (line breaks `\n`): the first line that is an
 * "On … wrote:" line (nl, en, de), an Outlook separator, a From:/Van:/Von: line with a Sent:/Date: line
 * among the next four (no empty line between), or a line starting with `>`. One pass over the lines;
 * a line is looked at again only as one of the four after a From: line.
 */
export function findTextQuote(text: string): number | undefined {
  const endOf = (start: number) => {
    const nl = text.indexOf('\n', start);
    return nl === -1 ? text.length : nl;
  };
  for (let start = 0; start <= text.length;) {
    const end = endOf(start);
    const raw = text.slice(start, end);
    if (raw.startsWith('>')) return start;
    const line = raw.trimEnd();
    if (
      line.length >= 13 &&
      line.length <= 210 &&
      line.startsWith('On ') &&
      line.endsWith(' wrote:') &&
      oneLine(line)
    )
      return start;
    if (writesLine(line, 'Op ', [' schreef ', ' heeft ']) || writesLine(line, 'Am ', [' schrieb ']))
      return start;
    if (separatorAt(text, start)) return start;
    if (end < text.length && fromHeaderBlock(raw, end + 1)) return start;
    start = end + 1;
  }
  return undefined;

  /** A From: line (`first`) and, among the four lines from `next` on, a Sent: line, none empty before it. */
  function fromHeaderBlock(first: string, next: number): boolean {
    const opening = HEADER_FROM.find((h) => first.startsWith(h));
    if (!opening || first.length === opening.length || !oneLine(first)) return false;
    for (let k = 0; k < 4 && next <= text.length; k += 1) {
      const end = endOf(next);
      const line = text.slice(next, end);
      if (HEADER_SENT.some((h) => line.startsWith(h))) return true;
      if (line === '' || !oneLine(line)) return false;
      next = end + 1;
    }
    return false;
  }
}
