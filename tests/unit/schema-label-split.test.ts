import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { labelsOf, messagesOfFiles, withoutLabels } from '../../common/schema/label-split.ts';
import { schemaMessages } from '../../common/schema/labels.ts';
import { LABEL_LOCALES } from '../../common/schema/types.ts';
import { registry, toResource } from '../../server/schema/registry.ts';

/*
 * The apps' build splits the schemas' words from the schemas (vite.config.ts, schemaLabelsApart): the
 * registry loads without them, each language chunk with its own. The words a language chunk ends up
 * with must be the ones the whole files give, and the registry must lose nothing but the words.
 */
const folder = new URL('../../schemas/', import.meta.url);
const files = Object.fromEntries(
  readdirSync(folder)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [
      `../schemas/${f}`,
      JSON.parse(readFileSync(new URL(f, folder), 'utf8')) as Record<string, any>,
    ]),
);
const name = (path: string) =>
  path
    .split('/')
    .pop()!
    .replace(/\.json$/, '');

describe("the schemas' words apart from the schemas", () => {
  it('give each language the words the registry of the whole files gives it', () => {
    const reg = registry();
    for (const locale of LABEL_LOCALES) {
      const whole = schemaMessages(reg, locale);
      expect(messagesOfFiles(files, locale), locale).toEqual(whole);
      const split = Object.fromEntries(
        Object.entries(files).map(([path, json]) => [path, labelsOf(name(path), json, locale)]),
      );
      expect(messagesOfFiles(split, locale), locale).toEqual(whole);
      // One language only: no other language's words travel in its chunk.
      expect(JSON.stringify(split)).not.toMatch(
        new RegExp(`"(${LABEL_LOCALES.filter((l) => l !== locale).join('|')})":\\{`),
      );
    }
    expect(messagesOfFiles(files, 'nl').resources.tickets!.name).toBe('Ticket |||| Tickets');
  });

  it('leave the registry everything but the words', () => {
    for (const [path, json] of Object.entries(files)) {
      const stripped = withoutLabels(name(path), json);
      expect(JSON.stringify(stripped), path).not.toContain('x-i18n');
      if (name(path) === '_enums') {
        for (const [k, e] of Object.entries(json).filter(([k]) => !k.startsWith('$')))
          expect({ ...(stripped[k] as object), 'x-i18n': (e as any)['x-i18n'] }, k).toEqual(e);
        continue;
      }
      expect({ ...stripped, 'x-i18n': json['x-i18n'] }, path).toEqual(json);
      const { labels, schema: _s, ...rest } = toResource(stripped);
      const { schema: _w, labels: _l, ...whole } = toResource(json);
      expect(labels, path).toEqual({});
      expect(rest, path).toEqual(whole);
    }
  });
});
