import type { I18nProvider, Locale, TranslationMessages } from 'ra-core';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { deepMerge } from './merge.ts';

export { deepMerge } from './merge.ts';

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

/**
 * Each language's messages are a chunk of their own (./<lang>/index.ts), loaded when that language is
 * shown: the first one before the app renders (`loadLanguage(storedLocale())`), another when the user
 * switches to it. German holds only what is written in German; it is shown merged over English.
 */
const chunks: Record<LocaleCode, () => Promise<{ default: TranslationMessages }>> = {
  nl: () => import('./nl/index.ts'),
  en: () => import('./en/index.ts'),
  de: () => import('./de/index.ts'),
};

const loading = new Map<LocaleCode, Promise<TranslationMessages>>();
const loaded = new Map<LocaleCode, TranslationMessages>();

/** The tree a language is shown with: German over English, the others as they are. */
function shown(code: LocaleCode, own: (c: LocaleCode) => TranslationMessages): TranslationMessages {
  return code === 'de' ? deepMerge(own('en'), own('de')) : own(code);
}

/**
 * Loads a language's messages once (German brings English along, its fallback); a failed download is
 * forgotten, so the next call tries again.
 */
export function loadLanguage(code: LocaleCode): Promise<TranslationMessages> {
  let promise = loading.get(code);
  if (!promise) {
    const codes: LocaleCode[] = code === 'de' ? ['en', 'de'] : [code];
    promise = Promise.all(codes.map((c) => chunks[c]())).then((modules) => {
      const own = new Map(codes.map((c, i) => [c, modules[i]!.default]));
      const tree = shown(code, (c) => own.get(c)!);
      loaded.set(code, tree);
      return tree;
    });
    promise.catch(() => loading.delete(code));
    loading.set(code, promise);
  }
  return promise;
}

/** A language's messages if they are loaded already, else undefined. */
export function loadedLanguage(code: LocaleCode): TranslationMessages | undefined {
  return loaded.get(code);
}

/**
 * The two texts shown before any language is loaded (the spinner's name, and what is said when the
 * language cannot be downloaded): each language's own `ra.page.loading`, `app.errors.network` and
 * `app.errors.retry`, kept equal to the message files by tests/browser/i18n-provider.test.ts.
 */
export const START_TEXTS: Record<LocaleCode, { loading: string; failed: string; retry: string }> = {
  nl: {
    loading: 'Laden',
    failed: 'De server is niet bereikbaar. Controleer je verbinding en probeer het opnieuw.',
    retry: 'Opnieuw proberen',
  },
  en: {
    loading: 'Loading',
    failed: 'The server cannot be reached. Check your connection and try again.',
    retry: 'Try again',
  },
  de: {
    loading: 'Wird geladen',
    failed: 'Der Server ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
    retry: 'Erneut versuchen',
  },
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
  /** Every language at hand (tests: ./catalogue.ts); without it, the languages loaded by `loadLanguage`. */
  messages?: Record<LocaleCode, TranslationMessages>;
}

/**
 * react-admin's i18nProvider: polyglot over the messages, starting in the language stored under
 * localStorage 'locale' (nl, en or de; anything else is nl). German is English with the German messages
 * merged over it, so a key missing in German shows the English text. Without `options.messages` the
 * starting language must have been loaded (`loadLanguage(storedLocale())`) and another one is downloaded
 * when the user switches to it: react-admin waits for it, so no screen shows keys or the old language
 * half-replaced. `changeLocale` stores the choice and sets `<html lang>`. A key missing everywhere shows
 * its last segment humanised, never the raw key, and a validation message in react-admin's wire form is
 * translated as the key it wraps, whichever component shows it (react-admin's own helper text parses it;
 * an input of ours need not).
 */
export function createI18nProvider(options: I18nOptions = {}): I18nProvider {
  const catalogue = options.messages;
  const resolved = new Map<LocaleCode, TranslationMessages>();
  const getMessages = (locale: string): TranslationMessages | Promise<TranslationMessages> => {
    const code = isLocale(locale) ? locale : DEFAULT_LOCALE;
    if (!catalogue) {
      const tree = loadedLanguage(code);
      if (tree) return tree;
      // polyglot asks for the starting language synchronously: it must be loaded before the app starts.
      if (locale === initial) throw new Error(`The messages of '${code}' are not loaded yet.`);
      return loadLanguage(code);
    }
    let tree = resolved.get(code);
    if (!tree) {
      tree = shown(code, (c) => catalogue[c]);
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
