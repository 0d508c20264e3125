/**
 * The server's texts that the apps show (common/server-texts.ts): each one is said in Dutch, English
 * and German with the values its server wording has, is recognised again with its values from the text
 * the server sends, and is never taken for another one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchServerText, SERVER_TEXTS, serverText, type ServerTextKey } from '../../common/server-texts.ts';
import nl from '../../src/i18n/nl/app.ts';
import en from '../../src/i18n/en/app.ts';
import de from '../../src/i18n/de/app.ts';

const keys = Object.keys(SERVER_TEXTS) as ServerTextKey[];
const NUMBERS = ['id', 'count', 'max', 'cost', 'budget'];
const names = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1]!).sort();

describe('the server texts the apps show', () => {
  it.each([
    ['nl', nl],
    ['en', en],
    ['de', de],
  ])('are all said in %s, with the same values as the server wording, and nothing else', (_, messages) => {
    const said = messages.app!.server as Record<string, string>;
    expect(Object.keys(said).sort()).toEqual([...keys].sort());
    for (const key of keys) {
      expect(said[key]!.trim(), key).not.toBe('');
      expect(names(said[key]!, /%\{(\w+)\}/g), key).toEqual(names(SERVER_TEXTS[key], /\{(\w+)\}/g));
    }
  });

  it('are recognised with their values, each as itself and never as another', () => {
    for (const key of keys) {
      // Names with a space in them, numbers as digits: as the server fills them in.
      const values = Object.fromEntries(
        names(SERVER_TEXTS[key], /\{(\w+)\}/g).map((n) => [n, NUMBERS.includes(n) ? '7' : `${n} x`]),
      );
      expect(matchServerText(serverText(key, values)), key).toEqual({ key, values });
    }
    expect(matchServerText('Something the server never says.')).toBeUndefined();
    expect(serverText('merge_too_many', { count: 20 })).toBe('At most 20 records can be merged at once.');
  });

  it('are what the server answers: no refusal in server/resources writes its sentence itself', () => {
    // A sentence written straight into a refusal there would reach every user in English. Not counted:
    // 403 and 404, which the apps never show, and refusals of a request's shape (`body`, `builders`),
    // which the apps never send wrong.
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts')) files.push(path);
      }
    };
    walk('server/resources');
    const refusal =
      /(?:new (?:HttpError|ValidationError)\(|add\(\s*'\w+',\s*)[^;]*['`][A-Z][a-z]+ [^'`]*\.['`]/;
    const written = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => [file, i + 1, line] as const)
        .filter(([, , line]) => refusal.test(line) && !/HttpError\(40[34]|\{ body:|builders/.test(line)),
    );
    expect(written.map(([file, n, line]) => `${file}:${n}: ${line.trim()}`)).toEqual([]);
  });
});
