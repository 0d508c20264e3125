/**
 * The incoming mail's quote splitter and reader limits (issue 31, item 1): the linear scanning finds
 * what the regular expressions it replaced found, on every shape of input fast-check makes of the
 * pieces that matter; hostile bodies are read in time proportional to their size; a quote after the
 * first QUOTE_SCAN_CHARS is not looked for; a long text is cut with the whole mail attached; at most
 * `maxAttachments` files are kept and the others named; an address that no reply could reach is none.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMail } from '../../server/mail/inbound/parse.ts';
import {
  QUOTE_SCAN_CHARS,
  findHtmlQuote,
  findTextQuote,
  hasVisibleText,
} from '../../server/mail/inbound/quote-split.ts';

/** The expressions of issue 19, the reference for what is found (on small inputs only). */
const OLD_TEXT_QUOTE = [
  /^On .{3,200} wrote:\s*$/m,
  /^Op .{3,200} (?:schreef|heeft) .{0,100}:\s*$/m,
  /^Am .{3,200} schrieb .{0,100}:\s*$/m,
  /^-{2,}\s*(?:Original Message|Oorspronkelijk bericht|Ursprüngliche Nachricht)\s*-{2,}\s*$/im,
  /^(?:From|Van|Von): .+\n(?:.+\n){0,3}(?:Sent|Verzonden|Gesendet|Date|Datum): /m,
  /^>.*(?:\n>.*)*\s*$/m,
];
const OLD_HTML_QUOTE = [
  /<div[^>]*class="[^"]*gmail_quote/i,
  /<blockquote[^>]*type="cite"/i,
  /<div[^>]*id="(?:divRplyFwdMsg|appendonsend)"/i,
  /<div[^>]*class="[^"]*moz-cite-prefix/i,
  /<hr[^>]*id="stopSpelling"/i,
];
const oldFirst = (text: string, patterns: RegExp[]) => {
  const found = patterns.map((p) => p.exec(text)?.index).filter((i): i is number => i !== undefined);
  return found.length ? Math.min(...found) : undefined;
};

const mail = (headers: string, body: string) => Buffer.from(`${headers}\r\nMIME-Version: 1.0\r\n${body}`);
const htmlMail = (html: string, from = 'Ann <ann@client.example>') =>
  mail(
    `From: ${from}\r\nSubject: Hi`,
    `Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n` +
      Buffer.from(html)
        .toString('base64')
        .replace(/.{1,76}/g, '$&\r\n'),
  );
const textMail = (text: string) =>
  mail(
    'From: ann@client.example\r\nSubject: Hi',
    `Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n` +
      Buffer.from(text)
        .toString('base64')
        .replace(/.{1,76}/g, '$&\r\n'),
  );
const read = (raw: Buffer, maxAttachments = 20) => parseMail(raw, { maxAttachments });

/**
 * The least CPU time of nine runs after a first, in ms, at least 1 (below that the clock's grain is the
 * figure). CPU time, not the clock's: on a busy machine the clock also counts other processes' turns.
 */
function fastest(run: () => unknown): number {
  run();
  let best = Infinity;
  for (let i = 0; i < 9; i += 1) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return Math.max(best, 1);
}

/**
 * How much longer `scan` takes on four times the input: about 4 when its time is proportional to the
 * size, 16 when it is quadratic (as the expressions of issue 19 were on these inputs).
 */
const growth = (make: (size: number) => string, scan: (input: string) => unknown) => {
  const small = make(QUOTE_SCAN_CHARS / 4);
  const large = make(QUOTE_SCAN_CHARS);
  return fastest(() => scan(large)) / fastest(() => scan(small));
};

describe('the quote in plain text', () => {
  it('is found where the expressions of issue 19 found it, for any arrangement of the parts that matter', () => {
    const piece = fc.constantFrom(
      'On ',
      'Op ',
      'Am ',
      ' wrote:',
      ' schreef ',
      ' heeft ',
      ' schrieb ',
      ':',
      '--',
      '-',
      ' ',
      '  ',
      '---',
      '\t',
      '\u00a0',
      'Original Message',
      'oorspronkelijk BERICHT',
      'URSPRÜNGLICHE Nachricht',
      'From: ',
      'Van: ',
      'Von: ',
      'Sent: ',
      'Date: ',
      'Gesendet: ',
      'Datum: ',
      '>',
      '\n',
      'x',
      'Tue, 24 Nov 2026 at 10:00, Desk <d@x.example>',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        expect(findTextQuote(text)).toBe(oldFirst(text, OLD_TEXT_QUOTE));
      }),
      { numRuns: 5000 },
    );
  });

  it('knows the usual forms in English, Dutch and German', () => {
    const reply = (quote: string) => findTextQuote(`Thanks!\n\n${quote}\n> old text\n`);
    expect(reply('On Tue, 24 Nov 2026 at 10:00, Desk <support@desk.example> wrote:')).toBe(9);
    expect(reply('Op di 24 nov 2026 om 10:00 schreef Desk <support@desk.example>:')).toBe(9);
    expect(reply('Op 24-11-2026 10:00 heeft Desk het volgende geschreven:')).toBe(9);
    expect(reply('Am Di., 24. Nov. 2026 um 10:00 Uhr schrieb Desk <support@desk.example>:')).toBe(9);
    expect(reply('-----Original Message-----')).toBe(9);
    expect(reply('---- Ursprüngliche Nachricht ----')).toBe(9);
    expect(findTextQuote('Yes.\n\nFrom: Desk\nTo: Ann\nSent: Tuesday\nSubject: x\n')).toBe(6);
    expect(findTextQuote('Yes.\n\nFrom: Desk\n\nSent: Tuesday\n')).toBeUndefined();
    expect(findTextQuote('No quote here.\nOn the other hand, nothing.\n')).toBeUndefined();
  });

  it('reads hostile text in time proportional to its size', () => {
    const hostile: Record<string, (size: number) => string> = {
      quoteLines: (size) => 'Hi\n' + '> \n'.repeat(size / 3),
      onLines: (size) => 'Hi\n' + `On ${'x'.repeat(197)}\n`.repeat(size / 201),
      verbs: (size) => 'Hi\n' + `Op ${' schreef '.repeat(30)}\n`.repeat(size / 274),
      fromLines: (size) => 'Hi\n' + 'From: x\n'.repeat(size / 8),
      spaces: (size) => 'Hi\nOn abc wrote:' + ' \n'.repeat(size / 2) + 'x',
    };
    for (const [name, make] of Object.entries(hostile))
      expect(growth(make, findTextQuote), name).toBeLessThan(8);
    expect(findTextQuote(hostile.quoteLines!(QUOTE_SCAN_CHARS))).toBe(3);
    expect(findTextQuote(hostile.onLines!(QUOTE_SCAN_CHARS))).toBeUndefined();
  });
});

describe('the quote in HTML', () => {
  it('is found at the marks of Gmail, Apple Mail, Outlook and Thunderbird', () => {
    const cases = [
      '<div class="gmail_quote gmail_quote_container"><div dir="ltr" class="gmail_attr">On … wrote:</div>',
      '<blockquote type="cite">old</blockquote>',
      '<div id="divRplyFwdMsg" dir="ltr"><b>From:</b> Desk</div>',
      '<div id="appendonsend"></div>',
      '<div class="moz-cite-prefix">On … wrote:<br></div>',
      '<hr style="display:inline-block;width:98%" tabindex="-1" id="stopSpelling">',
      "<DIV CLASS='GMAIL_QUOTE'>",
      '<div data-x="a>b" class=gmail_quote>',
    ];
    for (const quote of cases) {
      const html = `<p>New text</p><div><br></div>${quote}<p>old</p>`;
      expect(findHtmlQuote(html), quote).toBe(html.indexOf(quote));
    }
  });

  it('agrees with the expressions of issue 19 on the tags mail programs write', () => {
    const tag = fc.constantFrom(
      '<p>',
      '</p>',
      'text',
      '<div>',
      '<div class="x">',
      '<div class="gmail_quote">',
      '<div dir="ltr" class="a moz-cite-prefix">',
      '<div id="divRplyFwdMsg">',
      '<div id="appendonsend">',
      '<blockquote type="cite">',
      '<blockquote>',
      '<hr id="stopSpelling">',
      '<hr>',
      '<br/>',
    );
    fc.assert(
      fc.property(fc.array(tag, { maxLength: 30 }), (tags) => {
        const html = tags.join('');
        expect(findHtmlQuote(html)).toBe(oldFirst(html, OLD_HTML_QUOTE));
      }),
      { numRuns: 2000 },
    );
  });

  it('does not take a mark in a comment, in another attribute or in text for the quote', () => {
    expect(findHtmlQuote('<!-- <div class="gmail_quote"> --><p>x</p>')).toBeUndefined();
    expect(findHtmlQuote('<div title=\'class="gmail_quote"\'>x</div>')).toBeUndefined();
    expect(findHtmlQuote('<p>&lt;div class="gmail_quote"&gt;</p>')).toBeUndefined();
  });

  it('reads hostile HTML in time proportional to its size', () => {
    const hostile: Record<string, (size: number) => string> = {
      unclosedClass: (size) => '<div class="x'.repeat(size / 13),
      unclosedTag: (size) => '<div'.repeat(size / 4),
      unclosedSpace: (size) => '<div '.repeat(size / 5),
      openQuote: (size) => '<div class="'.repeat(size / 12),
      blockquotes: (size) => '<blockquote '.repeat(size / 12),
      comments: (size) => '<!--'.repeat(size / 4),
      lessThan: (size) => '<'.repeat(size),
    };
    for (const [name, make] of Object.entries(hostile)) {
      expect(growth(make, findHtmlQuote), name).toBeLessThan(8);
      expect(growth(make, hasVisibleText), name).toBeLessThan(8);
      expect(findHtmlQuote(make(QUOTE_SCAN_CHARS)), name).toBeUndefined();
    }
  });

  it('sees visible text exactly where the expression of issue 19 did', () => {
    const piece = fc.constantFrom(
      '<',
      '>',
      '<p>',
      '</p>',
      '&nbsp;',
      '&nbsp',
      ' ',
      '\n',
      '\u00a0',
      'a',
      '<br/>',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const html = pieces.join('');
        expect(hasVisibleText(html)).toBe(html.replace(/<[^>]*>|&nbsp;|\s/g, '') !== '');
      }),
      { numRuns: 3000 },
    );
  });
});

describe('a mail as the reader reads it', () => {
  it('splits the reply from the quote, both sanitised', async () => {
    const parsed = await read(
      htmlMail(
        '<p>Yes <script>x()</script>please</p><div class="gmail_quote"><p onclick="y()">old</p></div>',
      ),
    );
    expect(parsed.html).toBe('<p>Yes please</p>');
    expect(parsed.quoted).toBe('<div><p>old</p></div>');
    expect(parsed.notKept).toEqual([]);
  });

  it('does not look for a quote after the first QUOTE_SCAN_CHARS', async () => {
    const filler = '<p>text</p>'.repeat(Math.ceil(QUOTE_SCAN_CHARS / 11));
    const parsed = await read(htmlMail(`<p>New</p>${filler}<div class="gmail_quote">old</div>`));
    expect(parsed.quoted).toBeUndefined();
    const early = await read(htmlMail(`<p>New</p><div class="gmail_quote">old</div>${filler}`));
    expect(early.html).toBe('<p>New</p>');
    // The quote is kept up to its limit; the rest is named, and the whole mail attached.
    expect(early.quoted!.length).toBeLessThan(33 * 1024);
    expect(early.notKept).toEqual([
      "the rest of the mail's text, longer than a message keeps; the whole mail is attached as mail.eml.",
    ]);
    expect(early.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['mail.eml', 'message/rfc822'],
    ]);
  });

  it('keeps a long plain text up to its limit, escaped', async () => {
    const parsed = await read(textMail('<b>x</b> '.repeat(QUOTE_SCAN_CHARS)));
    expect(parsed.html.startsWith('<p>&lt;b&gt;x&lt;/b&gt; &lt;b&gt;')).toBe(true);
    expect(parsed.html.length).toBeLessThan(65 * 1024);
    expect(parsed.notKept).toHaveLength(1);
  });

  it('keeps the first maxAttachments files and names the next ten, then counts the rest', async () => {
    const boundary = 'b1';
    const parts = Array.from(
      { length: 25 },
      (_, i) =>
        `--${boundary}\r\nContent-Type: text/plain; name="f${i + 1}.txt"\r\n` +
        `Content-Disposition: attachment; filename="f${i + 1}.txt"\r\n\r\nfile ${i + 1}\r\n`,
    );
    const raw = mail(
      `From: ann@client.example\r\nSubject: files\r\nContent-Type: multipart/mixed; boundary="${boundary}"`,
      `\r\n--${boundary}\r\nContent-Type: text/plain\r\n\r\nSee the files.\r\n${parts.join('')}--${boundary}--\r\n`,
    );
    const parsed = await read(raw, 3);
    expect(parsed.attachments.map((a) => a.filename)).toEqual(['f1.txt', 'f2.txt', 'f3.txt']);
    expect(parsed.notKept).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `f${i + 4}.txt: a mail keeps at most 3 attachments.`),
      '12 more attachments: a mail keeps at most 3 attachments.',
    ]);
  });

  it('takes only an address a reply could reach as the sender', async () => {
    const from = async (header: string) => (await read(htmlMail('<p>x</p>', header))).from;
    expect(await from('Ann <ANN@Client.Example>')).toBe('ann@client.example');
    expect(await from('not an address')).toBeUndefined();
    expect(await from('<>')).toBeUndefined();
    expect(await from('Half <ann@>')).toBeUndefined();
    expect(await from('ann@localhost')).toBeUndefined();
    expect(await from('ann@client..example')).toBeUndefined();
    expect(await from('"Ann" <ann@sub.client.example>')).toBe('ann@sub.client.example');
  });
});
