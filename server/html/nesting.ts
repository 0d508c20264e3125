/**
 * How deep HTML nests, measured before the sanitiser reads it (issue 31). sanitize-html's parser
 * (htmlparser2's Parser) keeps its open elements in an array it shifts and searches on every tag, so
 * its work grows with the square of the nesting depth: 1 MB of `<div>` held the process for seconds.
 * This measure runs the same tokenizer (so a tag hidden in an attribute, a comment or a script is read
 * the way the sanitiser reads it) with a stack of its own that costs O(1) per tag, amortised: a close
 * tag is looked up in a count per name, and each open element is popped at most once.
 *
 * It never counts shallower than the parser: implied closes (`<p>` inside `<p>`, `<li>` after `<li>`)
 * and self-closing tags in SVG are not applied, so sloppy markup may count a little deeper than it is.
 */
import { Tokenizer } from 'htmlparser2';

/** Deeper than this, message HTML is refused: what an editor writes or a mail holds nests far less. */
export const MAX_HTML_DEPTH = 100;

/** Elements that never hold content: their open tag is not a level (htmlparser2's list). */
const VOID = new Set(
  'area base basefont br col command embed frame hr image img input isindex keygen link meta param source track wbr'.split(
    ' ',
  ),
);

/** Whether `html` nests elements deeper than `limit`; the scan stops as soon as it does. */
export function nestsDeeperThan(html: string, limit: number): boolean {
  const stack: string[] = [];
  const open = new Map<string, number>();
  let name = '';
  let tooDeep = false;
  const tokenizer = new Tokenizer(
    { xmlMode: false, decodeEntities: false },
    {
      onopentagname(start, end) {
        name = html.slice(start, end).toLowerCase();
      },
      onopentagend() {
        if (VOID.has(name)) return;
        stack.push(name);
        open.set(name, (open.get(name) ?? 0) + 1);
        if (stack.length > limit) {
          tooDeep = true;
          tokenizer.pause();
        }
      },
      // Outside SVG and MathML the parser ignores the slash: `<div/>` opens a div.
      onselfclosingtag() {
        this.onopentagend(0);
      },
      onclosetag(start, end) {
        const closing = html.slice(start, end).toLowerCase();
        if (!open.get(closing)) return;
        // Like the parser: the close tag closes every element opened inside the one it names.
        for (;;) {
          const top = stack.pop()!;
          open.set(top, open.get(top)! - 1);
          if (top === closing) return;
        }
      },
      onattribdata() {},
      onattribentity() {},
      onattribend() {},
      onattribname() {},
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onend() {},
      onprocessinginstruction() {},
      ontext() {},
      ontextentity() {},
    },
  );
  tokenizer.write(html);
  if (!tooDeep) tokenizer.end();
  return tooDeep;
}
