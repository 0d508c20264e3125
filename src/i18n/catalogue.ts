import type { TranslationMessages } from 'ra-core';
import de from './de/index.ts';
import en from './en/index.ts';
import nl from './nl/index.ts';
import type { LocaleCode } from './index.ts';

/**
 * Every language at once, for the tests that compare languages and for providers built without loading
 * (`createI18nProvider({ messages })`). The apps never import this file: they load the language shown
 * (`loadLanguage` in ./index.ts), so the others stay out of the first download.
 */
export const messages: Record<LocaleCode, TranslationMessages> = { nl, en, de };
