import { afterEach, beforeEach } from 'vitest';
import type { LocaleCode } from '../../src/i18n/index.ts';

/**
 * What the i18n test files share (i18n-messages and i18n-provider): a key looked up in a message tree,
 * the three languages, and a storage without a chosen language around each test.
 */

export function lookup(tree: object, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
}

export const LANGUAGES: LocaleCode[] = ['nl', 'en', 'de'];

/** No language stored before or after a test: each starts from the default one unless it stores one. */
export function noStoredLanguageAroundEachTest() {
  beforeEach(() => localStorage.clear());
  afterEach(() => localStorage.clear());
}
