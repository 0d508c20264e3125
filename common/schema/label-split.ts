/**
 * The schemas' words (x-i18n) apart from the schemas themselves, for the apps' build: the registry every
 * screen needs is bundled without them (vite.config.ts strips them from schemas/*.json), and each
 * language's chunk carries its own words only (`?labels=<lang>` imports of the same files). Without the
 * build step (tests, dev) the files arrive whole, and these functions read the same words from them.
 */
import type { SchemaMessages } from './labels.ts';
import type { LabelLocale } from './types.ts';

type Json = Record<string, any>;

const isEnums = (file: string) => file === '_enums';
const entriesOf = (enums: Json) => Object.entries(enums).filter(([k]) => !k.startsWith('$'));

/** A schema file ('tickets', '_enums') without its words. */
export function withoutLabels(file: string, json: Json): Json {
  if (!isEnums(file)) {
    const { 'x-i18n': _labels, ...rest } = json;
    return rest;
  }
  return Object.fromEntries(
    Object.entries(json).map(([name, e]) => {
      if (name.startsWith('$') || typeof e !== 'object' || e === null) return [name, e];
      const { 'x-i18n': _labels, ...rest } = e as Json;
      return [name, rest];
    }),
  );
}

/**
 * A schema without its documentation: every `description` that is text (the OpenAPI's words for
 * integrators; no screen shows them), not a field or a setting of that name. A tenth of the registry
 * both apps load first.
 */
export function withoutDocs<T>(json: T): T {
  if (Array.isArray(json)) return json.map(withoutDocs) as T;
  if (typeof json !== 'object' || json === null) return json;
  return Object.fromEntries(
    Object.entries(json)
      .filter(([key, value]) => !(key === 'description' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutDocs(value)]),
  ) as T;
}

/** A schema file's words in one language, in the places the whole file has them. */
export function labelsOf(file: string, json: Json, locale: LabelLocale): Json {
  const one = (labels: Json | undefined) =>
    labels?.[locale] ? { 'x-i18n': { [locale]: labels[locale] } } : {};
  if (!isEnums(file)) return { $id: json.$id, ...one(json['x-i18n']) };
  return Object.fromEntries(entriesOf(json).map(([name, e]) => [name, one((e as Json)['x-i18n'])]));
}

/**
 * `resources.<name>.*` and `enums.<enumeration>.<id>` of one language from schema files by path (whole
 * or `labelsOf` them): what `schemaMessages(registry, locale)` gives for the registry of the same files.
 */
export function messagesOfFiles(files: Record<string, Json>, locale: LabelLocale): SchemaMessages {
  const messages: SchemaMessages = { resources: {}, enums: {} };
  for (const [path, json] of Object.entries(files)) {
    const file = path
      .split('/')
      .pop()!
      .replace(/\.json$/, '');
    if (isEnums(file)) {
      for (const [name, e] of entriesOf(json)) {
        const labels = (e as Json)['x-i18n']?.[locale];
        if (labels) messages.enums[name] = labels;
      }
    } else if (!file.startsWith('_')) {
      const labels = json['x-i18n']?.[locale];
      if (labels) messages.resources[json.$id] = labels;
    }
  }
  return messages;
}
