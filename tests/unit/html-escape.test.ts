import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../server/html/escape.ts';

describe('escapeHtml', () => {
  it('turns the five characters that can break out of text or an attribute into entities', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
  });

  it('escapes an ampersand once, so an entity in the text shows as typed', () => {
    expect(escapeHtml('&amp; &lt;')).toBe('&amp;amp; &amp;lt;');
  });

  it('leaves other text alone, accents and emoji included', () => {
    expect(escapeHtml('Müller – café 😀 / \\ `=`')).toBe('Müller – café 😀 / \\ `=`');
    expect(escapeHtml('')).toBe('');
  });
});
