import type { I18nProvider, Locale, TranslationMessages } from 'ra-core';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import deApp from './de/app.ts';
import deExports from './de/exports.ts';
import deList from './de/list.ts';
import deRa from './de/ra.ts';
import enApp from './en/app.ts';
import enExports from './en/exports.ts';
import enList from './en/list.ts';
import enRa from './en/ra.ts';
import nlApp from './nl/app.ts';
import nlExports from './nl/exports.ts';
import nlList from './nl/list.ts';
import nlRa from './nl/ra.ts';
import { schemaMessages } from '../../common/schema/labels.ts';
import { registry } from '../schema.ts';

/**
 * The languages of both apps (SPEC section 1): Dutch by default, English, German (falling back to English).
 * Per language one tree: react-admin's keys `ra.*`, the schemas' words `resources.<name>.{name,empty,fields}`
 * and `enums.<enumeration>.<id>` (their x-i18n, common/schema/labels.ts), the apps' texts `app.*`, and the
 * list screen's texts (./<lang>/list.ts).
 */

export type LocaleCode = 'nl' | 'en' | 'de';

export const DEFAULT_LOCALE: LocaleCode = 'nl';

/** The localStorage key that keeps the chosen language. */
export const LOCALE_STORAGE_KEY = 'locale';

/** The language menu: each language in its own name. */
export const LOCALES: { locale: LocaleCode; name: string }[] = [
  { locale: 'nl', name: 'Nederlands' },
  { locale: 'en', name: 'English' },
  { locale: 'de', name: 'Deutsch' },
];

type Tree = { [key: string]: unknown };

const isTree = (value: unknown): value is Tree =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Merges trees left to right into a new one; later leaves win, nested objects are merged, inputs untouched. */
export function deepMerge(...trees: object[]): TranslationMessages {
  const out: Tree = {};
  for (const tree of trees) {
    for (const [key, value] of Object.entries(tree)) {
      if (value === undefined) continue;
      const current = out[key];
      out[key] = isTree(value) ? deepMerge(isTree(current) ? current : {}, value) : value;
    }
  }
  return out as TranslationMessages;
}

/** Each language's own messages; German holds only what is written in German (see `createI18nProvider`). */
export const messages: Record<LocaleCode, TranslationMessages> = {
  nl: deepMerge(nlRa, schemaMessages(registry, 'nl'), nlApp, nlList, nlExports),
  en: deepMerge(enRa, schemaMessages(registry, 'en'), enApp, enList, enExports),
  de: deepMerge(deRa, schemaMessages(registry, 'de'), deApp, deList, deExports),
};

export const isLocale = (value: unknown): value is LocaleCode => LOCALES.some((l) => l.locale === value);

/** 'resources.tickets.fields.ticket_group_id' → 'Ticket group id'; 'contractPeriods' → 'Contract periods'. */
export function humanizeKey(key: string): string {
  // Not a dotted key (a literal label passed to translate): show it as it is.
  if (!/^[\w-]+(\.[\w-]+)+$/.test(key)) return key;
  const last = key.slice(key.lastIndexOf('.') + 1);
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : key;
}

/** How react-admin's inputs hand a validator's message to react-hook-form (ra-core useInput). */
const VALIDATION_PREFIX = '@@react-admin@@';

/**
 * A validation message in react-admin's wire form ('@@react-admin@@"ra.validation.required"', or
 * '@@react-admin@@{"message":"ra.validation.minLength","args":{"min":2}}') as the key and arguments
 * it stands for; undefined for any other text.
 */
export function validationMessage(text: string): { message: string; args?: object } | undefined {
  if (!text.startsWith(VALIDATION_PREFIX)) return undefined;
  try {
    const parsed: unknown = JSON.parse(text.slice(VALIDATION_PREFIX.length));
    if (typeof parsed === 'string') return { message: parsed };
    const { message, args } = (parsed ?? {}) as { message?: unknown; args?: unknown };
    if (typeof message !== 'string') return undefined;
    return typeof args === 'object' && args !== null ? { message, args } : { message };
  } catch {
    return undefined;
  }
}

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // access denied (privacy settings)
  }
}

/** The stored language if it is one of ours, else Dutch. */
export function storedLocale(): LocaleCode {
  let stored: string | null;
  try {
    stored = storage()?.getItem(LOCALE_STORAGE_KEY) ?? null;
  } catch {
    stored = null;
  }
  return isLocale(stored) ? stored : DEFAULT_LOCALE;
}

function remember(locale: LocaleCode): void {
  try {
    storage()?.setItem(LOCALE_STORAGE_KEY, locale);
  } catch {
    // storage full or denied: the choice lasts until the page is reloaded
  }
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

export interface I18nOptions {
  /** Replaces the message trees (tests). */
  messages?: Record<LocaleCode, TranslationMessages>;
}

/**
 * react-admin's i18nProvider: polyglot over `messages`, starting in the language stored under
 * localStorage 'locale' (nl, en or de; anything else is nl). German is English with the German messages
 * merged over it, so a key missing in German shows the English text. `changeLocale` stores the choice and
 * sets `<html lang>`. A key missing everywhere shows its last segment humanised, never the raw key, and
 * a validation message in react-admin's wire form is translated as the key it wraps, whichever
 * component shows it (react-admin's own helper text parses it; an input of ours need not).
 */
export function createI18nProvider(options: I18nOptions = {}): I18nProvider {
  const catalogue = options.messages ?? messages;
  const resolved = new Map<LocaleCode, TranslationMessages>();
  const getMessages = (locale: string): TranslationMessages => {
    const code = isLocale(locale) ? locale : DEFAULT_LOCALE;
    let tree = resolved.get(code);
    if (!tree) {
      tree = code === 'de' ? deepMerge(catalogue.en, catalogue.de) : catalogue[code];
      resolved.set(code, tree);
    }
    return tree;
  };
  const initial = storedLocale();
  const provider = polyglotI18nProvider(getMessages, initial, LOCALES as Locale[], {
    allowMissing: true,
    onMissingKey: (key: string) => humanizeKey(key),
  });
  if (typeof document !== 'undefined') document.documentElement.lang = initial;
  return {
    ...provider,
    translate: (key: string, translateOptions?: object) => {
      const wrapped = typeof key === 'string' ? validationMessage(key) : undefined;
      if (!wrapped) return provider.translate(key, translateOptions);
      // The wrapper's own text is no fallback to show: a missing key is humanised like any other.
      const { _: _fallback, ...rest } = (translateOptions ?? {}) as { _?: unknown };
      return provider.translate(wrapped.message, { ...rest, ...wrapped.args });
    },
    changeLocale: async (locale: string, changeOptions?: unknown) => {
      const code = isLocale(locale) ? locale : DEFAULT_LOCALE;
      await provider.changeLocale(code, changeOptions);
      remember(code);
    },
    getLocales: () => LOCALES,
  };
}
