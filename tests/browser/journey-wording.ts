/**
 * What the journey-wording tests share (journey-wording.test.ts, journey-wording-records.test.ts): each
 * journey runs in one language (tests/e2e/support.ts: inLanguage); what it asserted about wording in the
 * languages it no longer drives is asserted at the catalogue key its screen shows, in Dutch, English and
 * German, through the same provider the apps use (German shows English where German has no text of its
 * own). Two files so that each stays under 400 lines.
 */
import { describe, expect, it } from 'vitest';
import { createI18nProvider, type LocaleCode } from '../../src/i18n/index.ts';
import { messages } from '../../src/i18n/catalogue.ts';

type Said = Record<LocaleCode, string>;
type Values = Record<string, unknown>;
/**
 * A key, its values (polyglot's %{name}: the same in every language, or per language where the screen
 * fills in a text of that language) and what it says in each language.
 */
export type Wording = [key: string, values: Values | Record<LocaleCode, Values> | undefined, said: Said];

/** Per journey file (tests/e2e/<name>.spec.ts), the texts its screens show and it asserted. */
export type Journeys = [journey: string, wordings: Wording[]][];

const LANGUAGES: LocaleCode[] = ['nl', 'en', 'de'];
const perLanguage = (values: Wording[1]): values is Record<LocaleCode, Values> =>
  values !== undefined && LANGUAGES.every((lang) => lang in values);

/** One test per journey and language: every key says in that language what the journey read. */
export function describeWording(journeys: Journeys) {
  describe.each(journeys)('the wording of %s', (_, wordings) => {
    it.each(LANGUAGES)('in %s, at the keys its screens show', async (lang) => {
      const provider = createI18nProvider({ messages });
      await provider.changeLocale(lang);
      for (const [key, values, said] of wordings) {
        const filled = perLanguage(values) ? values[lang] : values;
        expect(provider.translate(key, filled), key).toBe(said[lang]);
      }
    });
  });
}
