/**
 * The message sanitiser (issue 5, item 3) against classic XSS payloads: each output is parsed the way
 * a browser parses it (jsdom), twice (parse, serialise, parse again: mutation XSS lives in that
 * round trip), and must hold no executable vector: no script-capable element, no event handler, no
 * link or image that is not ours or plain http(s)/mailto, no style beyond text alignment.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { embeddedImageIds, messageText, sanitizeMessage } from '../../server/html/sanitize.ts';

// jsdom ships no types (and @types/jsdom is not a dependency): the one constructor used, typed here.
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (html: string) => { window: { document: Document } };
};

const PAYLOADS: string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/xss.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="/api/attachments/1/file" onerror="alert(1)">',
  '<IMG SRC="javascript:alert(1);">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<img srcset="x 1x" onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">XSS</text></a></svg>',
  '<a href="javascript:alert(1)">click</a>',
  '<a href="JaVaScRiPt:alert(1)">click</a>',
  '<a href="jav&#x09;ascript:alert(1)">click</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">click</a>',
  '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)">click</a>',
  '<a href=" &#14; javascript:alert(1)">click</a>',
  '<a href="vbscript:msgbox(1)">click</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
  '<a href="//evil.example/">protocol relative</a>',
  '<a href="https://example.com" onclick="alert(1)" onmouseover="alert(2)">ok</a>',
  '<p style="background:url(javascript:alert(1))">x</p>',
  '<div style="width: expression(alert(1));">x</div>',
  '<p style="behavior: url(xss.htc); -moz-binding: url(xss.xml#xss)">x</p>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><input type="submit"></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<style>@import "javascript:alert(1)";</style>',
  '<body onload=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<audio src=x onerror=alert(1)>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
  '<xmp><p title="</xmp><img src=x onerror=alert(1)>">',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<template><img src=x onerror=alert(1)></template>',
  '<span data-type="mention" data-id="1 onmouseover=alert(1)">@x</span>',
  '<span class="mention" onmouseover="alert(1)">@x</span>',
  '<<script>script>alert(1)<</script>/script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<img """><script>alert(1)</script>">',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
  '<td background="javascript:alert(1)">x</td>',
  '<blockquote cite="javascript:alert(1)">q</blockquote>',
  '<a href="https://example.com" target="_self">tab</a>',
  '<isindex action="javascript:alert(1)" type=image>',
  '<img src="/api/attachments/12/file?token=1.o.abc"><img src="/api/attachments/12/file/../../../evil">',
];

const ALLOWED_TAGS = new Set(
  'p br div span strong b em i u s strike del ins sub sup mark small h1 h2 h3 h4 h5 h6 blockquote ul ol li a img table thead tbody tfoot tr th td caption colgroup col code pre hr details summary'.split(
    ' ',
  ),
);

/** Every executable vector found in the HTML as a browser would build it. */
function vectors(html: string): string[] {
  const found: string[] = [];
  const { document } = new JSDOM(`<!doctype html><body>${html}</body>`).window;
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    const tag = el.tagName.toLowerCase();
    if (!ALLOWED_TAGS.has(tag) || el.namespaceURI !== 'http://www.w3.org/1999/xhtml') found.push(`<${tag}>`);
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      const value = attr.value;
      if (name.startsWith('on')) found.push(`${tag}[${name}]`);
      if (
        ['src', 'srcset', 'action', 'formaction', 'background', 'data', 'xlink:href', 'cite'].includes(name)
      ) {
        if (!(tag === 'img' && name === 'src' && /^\/api\/attachments\/\d+\/file$/.test(value)))
          found.push(`${tag}[${name}=${value}]`);
      }
      if (name === 'href') {
        const url = new URL(value, 'https://desk.example/app/tickets/1');
        const ours = url.origin === 'https://desk.example' && !/^\s*\/\//.test(value);
        if (
          !['http:', 'https:', 'mailto:'].includes(url.protocol) ||
          (!ours && !/^(https?|mailto):/i.test(value))
        )
          found.push(`${tag}[href=${value}]`);
      }
      if (name === 'style' && !/^text-align:(left|right|center|justify);?$/.test(value.replace(/\s/g, '')))
        found.push(`${tag}[style=${value}]`);
    }
    if (tag === 'a' && (el.getAttribute('rel') ?? '').split(/\s+/).indexOf('noopener') < 0)
      found.push('a without noopener');
  }
  return found;
}

/** The HTML after a browser's parse and serialise: the second reading mutation XSS relies on. */
function reparsed(html: string): string {
  return new JSDOM(`<!doctype html><body>${html}</body>`).window.document.body.innerHTML;
}

describe('sanitizeMessage', () => {
  it('has at least 30 payloads to face', () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(PAYLOADS)('leaves no executable vector in %s', (payload) => {
    const clean = sanitizeMessage(payload);
    expect(vectors(clean)).toEqual([]);
    expect(vectors(reparsed(clean))).toEqual([]);
    expect(clean).not.toMatch(/javascript:|vbscript:|data:|onerror|onload|<script|<iframe|<svg|<style/i);
    // Stable: cleaning the clean output changes nothing (no second, different reading).
    expect(sanitizeMessage(clean)).toBe(clean);
  });

  it('keeps what an editor writes: formatting, lists, links, tables, code, mentions, alignment', () => {
    const html =
      '<h2>Kop</h2><p style="text-align: center">Goed <strong>vet</strong> <em>schuin</em> <u>onder</u> <s>weg</s></p>' +
      '<ul><li>een</li></ul><ol start="3"><li>drie</li></ol><blockquote>citaat</blockquote>' +
      '<p><a href="https://example.com/a?b=1">link</a> <a href="mailto:a@example.com">mail</a> <a href="/app/tickets/1#message-2">hier</a></p>' +
      '<table><thead><tr><th>A</th></tr></thead><tbody><tr><td colspan="2">1</td></tr></tbody></table>' +
      '<pre><code class="language-js">let a = 1 &lt; 2;</code></pre>' +
      '<p><span class="mention" data-type="mention" data-id="7" data-label="Daan">@Daan</span></p>' +
      '<p><img src="/api/attachments/5/file" alt="schermafbeelding"></p>';
    const clean = sanitizeMessage(html);
    for (const part of [
      '<h2>Kop</h2>',
      '<p style="text-align:center">',
      '<strong>vet</strong>',
      '<em>schuin</em>',
      '<u>onder</u>',
      '<s>weg</s>',
      '<ol start="3">',
      '<blockquote>citaat</blockquote>',
      'href="https://example.com/a?b=1"',
      'href="mailto:a@example.com"',
      'href="/app/tickets/1#message-2"',
      'rel="noopener noreferrer"',
      '<td colspan="2">1</td>',
      '<code class="language-js">let a = 1 &lt; 2;</code>',
      '<span class="mention" data-type="mention" data-id="7" data-label="Daan">@Daan</span>',
      'src="/api/attachments/5/file"',
    ]) {
      expect(clean).toContain(part);
    }
    expect(vectors(clean)).toEqual([]);
  });

  it('stores our image addresses without the reader’s download token', () => {
    const clean = sanitizeMessage('<img src="/api/attachments/12/file?token=1795396565.c3.abc" alt="x">');
    expect(clean).toBe('<img alt="x" src="/api/attachments/12/file" />');
    expect(embeddedImageIds(clean)).toEqual([12]);
  });

  it('drops images from elsewhere and data: images', () => {
    expect(
      sanitizeMessage('<p><img src="https://evil.example/a.png"><img src="data:image/png;base64,AAAA">x</p>'),
    ).toBe('<p>x</p>');
  });

  it('writes a plain-text version for e-mail', () => {
    expect(messageText('<p>Beste Jan,</p><ul><li>een &amp; twee</li></ul><p>Groet<br>Daan</p>')).toBe(
      'Beste Jan,\n- een & twee\nGroet\nDaan',
    );
  });
});
