/**
 * What the translation sweep looks for in a screen's text (tests/e2e/translation-sweep.spec.ts): a raw
 * message key, react-admin's validation wire prefix, and on an English or German screen a Dutch text of
 * the catalogue. The catalogue is read here in Node as the apps build it (src/i18n/<lang>/index.ts): each
 * language's message files and the schemas' words (x-i18n). The files are read from their folder, so a
 * new message file is included without a list here to keep up; German is shown merged over English.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemaMessages } from '../../../common/schema/labels.ts';
import { registry } from '../../../server/schema/registry.ts';

export type Language = 'nl' | 'en' | 'de';
export const LANGUAGES: readonly Language[] = ['nl', 'en', 'de'];

type Tree = { [key: string]: unknown };

const I18N = fileURLToPath(new URL('../../../src/i18n/', import.meta.url));

/** Every string of a tree, with its dotted key. */
function flatten(tree: unknown, prefix: string, into: Map<string, string[]>) {
  if (typeof tree === 'string') {
    into.set(prefix, [...(into.get(prefix) ?? []), tree]);
    return;
  }
  if (typeof tree !== 'object' || tree === null) return;
  for (const [key, value] of Object.entries(tree as Tree))
    flatten(value, prefix ? `${prefix}.${key}` : key, into);
}

/** A language's strings by key: its message files (index.ts merges them in the build) and the schemas' words. */
async function stringsOf(language: Language): Promise<Map<string, string[]>> {
  const strings = new Map<string, string[]>();
  const files = readdirSync(`${I18N}${language}`).filter((f) => f.endsWith('.ts') && f !== 'index.ts');
  for (const file of files) {
    const module = (await import(`${I18N}${language}/${file}`)) as { default: unknown };
    flatten(module.default, '', strings);
  }
  flatten(schemaMessages(registry(), language), '', strings);
  return strings;
}

/** The parts of a message a screen shows literally: between placeholders (%{x}) and plural forms (||||). */
function literalParts(message: string): string[] {
  return message
    .split(/%\{[^}]*\}|\|\|\|\|/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * A part tells Dutch apart when a reader would not take it for a name or a number: two words or more, or
 * ten letters or more ('Gearchiveerd'); one short word ('Naam', 'Status') may be a proper name or the same
 * word in English.
 */
const distinctive = (part: string) => /\S\s+\S/.test(part) || /\p{L}{10,}/u.test(part);

export interface Catalogue {
  /** Each language's message by key, as the app shows it (German over English). */
  messages: Record<Language, Map<string, string>>;
  /** The first segments of every key ('ra', 'app', 'resources', …): the shape a raw key has. */
  roots: string[];
  /** Dutch texts of the catalogue that no English or German message contains, longest first. */
  dutch: string[];
}

const SEED = fileURLToPath(new URL('../../../server/db/seed/', import.meta.url));

/** The demo seed's sources (its data files and the code that writes rows) as one text. */
function seedText(): string {
  return readdirSync(SEED, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(json|ts)$/.test(file))
    .map((file) => readFileSync(`${SEED}${file}`, 'utf8'))
    .join('\n');
}

let cached: Promise<Catalogue> | undefined;

/** The catalogue's key roots and its distinctively Dutch texts, read once per worker. */
export function catalogue(): Promise<Catalogue> {
  cached ??= (async () => {
    const [nl, en, de] = await Promise.all(LANGUAGES.map(stringsOf));
    const roots = [...new Set([...nl!.keys(), ...en!.keys()].map((key) => key.split('.')[0]!))];
    // Every English and German part: a Dutch part equal to one of them, or inside one ('Filter' in
    // 'Filter zurücksetzen'), is no sign of Dutch.
    const other = [...en!.values(), ...de!.values()].flat().flatMap(literalParts);
    const otherText = `\n${other.join('\n')}\n`;
    // The demo data is Dutch and may show on any screen: a catalogue text that is also a value of the
    // seed (a role 'Eerste lijn', a saved view 'Alle tickets') cannot be told apart from it there.
    const seed = seedText();
    const dutch = new Set<string>();
    for (const part of [...nl!.values()].flat().flatMap(literalParts)) {
      if (distinctive(part) && !otherText.includes(part) && !seed.includes(part)) dutch.add(part);
    }
    const last = (strings: Map<string, string[]>) =>
      new Map([...strings].map(([key, values]) => [key, values[values.length - 1]!]));
    const messages = { nl: last(nl!), en: last(en!), de: new Map([...last(en!), ...last(de!)]) };
    return { messages, roots, dutch: [...dutch].sort((a, b) => b.length - a.length) };
  })();
  return cached;
}

/** What the page shows: its text and the names and hints of its elements (aria-label, title, placeholder, alt). */
export interface ScreenText {
  text: string;
  attributes: string[];
}

const isLetter = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}]/u.test(char);

/** Whether `part` stands in `text` as whole words (not 'Bedrijfsnaam' inside 'Bedrijfsnaamgeving'). */
function containsWords(text: string, part: string): boolean {
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + 1)) {
    if (!isLetter(text[at - 1]) && !isLetter(text[at + part.length])) return true;
  }
  return false;
}

/**
 * The problems of one screen's text, one line each: a raw key (`ra.action.save`, `resources.x.fields.y`),
 * react-admin's wire prefix, and for en and de the Dutch catalogue texts shown. A key is a root of the
 * catalogue, a dot and a name, not inside a word, an address or a file name: the expression has no nested
 * repetition, so it runs in linear time.
 */
export function textProblems(screen: ScreenText, language: Language, { roots, dutch }: Catalogue): string[] {
  const problems: string[] = [];
  const all = [screen.text, ...screen.attributes].join('\n');
  if (all.includes('@@react-admin@@')) problems.push('react-admin wire text @@react-admin@@');
  const key = new RegExp(
    `(?<![\\p{L}\\p{N}_@./:-])(?:${roots.join('|')})\\.[A-Za-z_][\\w-]*(?:\\.[\\w-]+)*`,
    'gu',
  );
  for (const match of all.matchAll(key)) problems.push(`raw key '${match[0]}'`);
  if (language !== 'nl') {
    // One long word ('Strippenkaart') is also a word of Dutch demo data ('Strippenkaart Jansen BV'): it
    // counts where it stands alone, as a label, a heading or a button does (a required field's label
    // ends in '*'). Words together are the catalogue's wherever they stand.
    const alone = new Set(all.split('\n').map((line) => line.replace(/\s*\*$/, '').trim()));
    for (const part of dutch) {
      const shown = /\s/.test(part) ? containsWords(all, part) : alone.has(part);
      if (shown) problems.push(`Dutch text '${part}'`);
    }
  }
  return [...new Set(problems)];
}
